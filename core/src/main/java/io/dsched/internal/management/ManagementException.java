package io.dsched.internal.management;

/**
 * A management request that cannot be carried out, with the HTTP status that says why: bad
 * input, an unknown thing, or a change that conflicts with the current state. Its message is
 * meant for the client and never holds a stack trace.
 */
public class ManagementException extends RuntimeException {

    private final int status;

    private final String field;

    private ManagementException(int status, String field, String message) {
        super(message);
        this.status = status;
        this.field = field;
    }

    /**
     * Bad input in one field.
     * @param field the request field
     * @param message why it is refused
     * @return the exception
     */
    public static ManagementException badInput(String field, String message) {
        return new ManagementException(400, field, message);
    }

    /**
     * Something that does not exist.
     * @param message what was not found
     * @return the exception
     */
    public static ManagementException notFound(String message) {
        return new ManagementException(404, null, message);
    }

    /**
     * A change that conflicts with the current state.
     * @param message the conflict
     * @return the exception
     */
    public static ManagementException conflict(String message) {
        return new ManagementException(409, null, message);
    }

    /**
     * Returns the HTTP status for this error.
     * @return 400, 404 or 409
     */
    public int status() {
        return this.status;
    }

    /**
     * Returns the request field at fault.
     * @return the field, or {@code null}
     */
    public String field() {
        return this.field;
    }
}
