package io.dsched.sample.order;

import java.math.BigDecimal;
import java.time.Instant;

/**
 * One row of {@code sample_order}.
 *
 * @param id generated id
 * @param status state of the order
 * @param amount amount to settle
 * @param createdAt when the order was placed
 * @param settledAt when it was settled, or {@code null} while it is not
 */
public record Order(long id, OrderStatus status, BigDecimal amount, Instant createdAt, Instant settledAt) {}
