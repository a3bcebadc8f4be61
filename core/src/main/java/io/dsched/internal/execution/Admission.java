package io.dsched.internal.execution;

import java.util.ArrayList;
import java.util.List;

/**
 * The pipeline's admission stage: asks each policy in turn whether a claimed attempt may run now.
 * An attempt runs with the permits of all of them; when one holds it back, the permits the others
 * gave are released at once, last first.
 */
final class Admission {

    private final List<AdmissionPolicy> policies;

    /**
     * Creates the stage.
     * @param policies the policies, asked in this order
     */
    Admission(List<AdmissionPolicy> policies) {
        this.policies = List.copyOf(policies);
    }

    /**
     * Decides whether an attempt may run now.
     * @param attempt the claimed attempt, with its job
     * @return the permits it runs with, or what holds it back
     */
    AdmissionDecision admit(Attempt attempt) {
        List<Permit> permits = new ArrayList<>(this.policies.size());
        try {
            for (AdmissionPolicy policy : this.policies) {
                Ticket ticket = policy.admit(attempt);
                if (!ticket.isAdmitted()) {
                    Permits.releaseAll(permits);
                    return new AdmissionDecision(null, ticket);
                }
                permits.add(ticket.permit());
            }
        } catch (RuntimeException ex) {
            Permits.releaseAll(permits);
            throw ex;
        }
        return new AdmissionDecision(new Permits(permits), null);
    }
}
