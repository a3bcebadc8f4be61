package io.dsched.internal.execution;

/**
 * What admission decided.
 *
 * @param permits what the admitted attempt runs with, or {@code null} if it is held back
 * @param hold the ticket that holds it back, or {@code null}
 */
record AdmissionDecision(Permits permits, Ticket hold) {

    boolean admitted() {
        return this.permits != null;
    }
}
