package io.dsched.sample.order;

/**
 * The payload of the one-off job that cancels an order nobody paid in time.
 *
 * @param orderId the order
 */
public record OrderTimeout(long orderId) {}
