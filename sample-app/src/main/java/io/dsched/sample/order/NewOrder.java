package io.dsched.sample.order;

import java.math.BigDecimal;

/**
 * The body of a request that places an order.
 *
 * @param amount amount of the order, positive
 */
public record NewOrder(BigDecimal amount) {}
