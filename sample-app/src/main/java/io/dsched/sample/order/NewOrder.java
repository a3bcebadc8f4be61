package io.dsched.sample.order;

import java.math.BigDecimal;

/**
 * The body of a request that places an order.
 *
 * @param amount amount of the order: positive, with at most two decimal places, at most
 *     1,000,000.00 ({@link OrderAmount})
 */
public record NewOrder(BigDecimal amount) {}
