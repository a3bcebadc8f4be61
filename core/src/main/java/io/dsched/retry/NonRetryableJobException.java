package io.dsched.retry;

/**
 * Thrown by a job whose failure no retry can mend, such as invalid input: the fire is
 * dead-lettered at once.
 */
public class NonRetryableJobException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates an exception.
     * @param message what is wrong
     */
    public NonRetryableJobException(String message) {
        super(message);
    }

    /**
     * Creates an exception with a cause.
     * @param message what is wrong
     * @param cause the cause
     */
    public NonRetryableJobException(String message, Throwable cause) {
        super(message, cause);
    }
}
