package io.dsched.sample.order;

/**
 * Thrown when an order is paid after it was cancelled for want of payment.
 */
public class OrderCancelledException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     * @param id the cancelled order
     */
    public OrderCancelledException(long id) {
        super("Order " + id + " was cancelled because it was not paid in time");
    }
}
