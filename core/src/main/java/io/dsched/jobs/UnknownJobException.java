package io.dsched.jobs;

/**
 * A job or handler that no node of this application declares was named.
 */
public class UnknownJobException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     * @param message what was not found
     */
    public UnknownJobException(String message) {
        super(message);
    }
}
