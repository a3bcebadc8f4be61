package io.dsched.sample.order;

/**
 * The states of an order: {@code PENDING -> PAID -> SETTLED}, or {@code PENDING -> CANCELLED} when
 * it is not paid in time.
 */
public enum OrderStatus {

    /** Placed, awaiting payment. */
    PENDING,
    /** Paid, waiting to be settled. */
    PAID,
    /** Paid out by the settlement job. */
    SETTLED,
    /** Cancelled because it was not paid in time. */
    CANCELLED
}
