package io.dsched.sample.order;

import java.math.BigDecimal;

/**
 * Number and sum of the orders in one state.
 *
 * @param status the state
 * @param count how many orders are in it
 * @param amount their total amount
 */
public record OrderTotals(OrderStatus status, long count, BigDecimal amount) {}
