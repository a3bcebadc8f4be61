package io.dsched.sample.order;

/**
 * The states of an order.
 */
public enum OrderStatus {

    /** Placed, waiting to be settled. */
    PENDING,
    /** Paid out by the settlement job. */
    SETTLED,
    /** Withdrawn before settlement. */
    CANCELLED
}
