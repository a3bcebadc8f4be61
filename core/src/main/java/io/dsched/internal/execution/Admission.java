package io.dsched.internal.execution;

import io.dsched.internal.execution.AdmissionPolicy.Permit;
import io.dsched.internal.execution.AdmissionPolicy.Ticket;
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
    Decision admit(Attempt attempt) {
        List<Permit> permits = new ArrayList<>(this.policies.size());
        try {
            for (AdmissionPolicy policy : this.policies) {
                Ticket ticket = policy.admit(attempt);
                if (!ticket.isAdmitted()) {
                    releaseAll(permits);
                    return new Decision(null, ticket);
                }
                permits.add(ticket.permit());
            }
        } catch (RuntimeException ex) {
            releaseAll(permits);
            throw ex;
        }
        return new Decision(new Permits(permits), null);
    }

    private static void releaseAll(List<Permit> permits) {
        for (int i = permits.size() - 1; i >= 0; i--) {
            permits.get(i).release();
        }
    }

    /**
     * What admission decided.
     *
     * @param permits what the admitted attempt runs with, or {@code null} if it is held back
     * @param hold the ticket that holds it back, or {@code null}
     */
    record Decision(Permits permits, Ticket hold) {

        boolean admitted() {
            return this.permits != null;
        }
    }

    /** The permits of an admitted attempt, released together, last first. */
    static final class Permits {

        private final List<Permit> permits;

        Permits(List<Permit> permits) {
            this.permits = permits;
        }

        /**
         * Returns the guard's permit, which the write of a success can release.
         * @return the permit, or {@code null} if the job's lock was not taken
         */
        GuardAdmission.GuardPermit guard() {
            for (Permit permit : this.permits) {
                if (permit instanceof GuardAdmission.GuardPermit guard) {
                    return guard;
                }
            }
            return null;
        }

        void release() {
            releaseAll(this.permits);
        }
    }
}
