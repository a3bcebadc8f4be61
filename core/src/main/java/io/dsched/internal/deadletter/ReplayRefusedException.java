package io.dsched.internal.deadletter;

/** A dead letter that cannot be replayed as things stand; it stays open. */
public class ReplayRefusedException extends RuntimeException {

    /**
     * Creates the exception.
     * @param message why, for the operator
     */
    public ReplayRefusedException(String message) {
        super(message);
    }
}
