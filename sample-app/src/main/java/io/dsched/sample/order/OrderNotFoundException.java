package io.dsched.sample.order;

/**
 * Thrown when an order does not exist.
 */
public class OrderNotFoundException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     * @param id the missing order
     */
    public OrderNotFoundException(long id) {
        super("No order " + id);
    }
}
