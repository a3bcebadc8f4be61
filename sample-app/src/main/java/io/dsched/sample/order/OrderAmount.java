package io.dsched.sample.order;

import java.math.BigDecimal;

/**
 * The rules of an order's amount: positive, at most two decimal places and at most {@link #MAX}.
 * They are checked with {@link BigDecimal#scale()}, {@link BigDecimal#signum()} and
 * {@link BigDecimal#compareTo}, which cost next to nothing whatever number a request holds, before
 * anything rounds the amount: {@code setScale} of {@code 1e-30000000} alone takes seconds of CPU.
 */
public final class OrderAmount {

    /** The largest amount of an order. */
    public static final BigDecimal MAX = new BigDecimal("1000000.00");

    private OrderAmount() {}

    /**
     * Checks an amount and returns it with two decimal places.
     * @param amount the amount, as a request or a job gives it
     * @return the amount in cents, unchanged in value
     * @throws IllegalArgumentException naming the rule the amount breaks
     */
    public static BigDecimal cents(BigDecimal amount) {
        if (amount == null) {
            throw new IllegalArgumentException("amount is required");
        }
        if (amount.scale() > 2) {
            throw new IllegalArgumentException("amount must have at most 2 decimal places");
        }
        if (amount.signum() <= 0) {
            throw new IllegalArgumentException("amount must be positive");
        }
        if (amount.compareTo(MAX) > 0) {
            throw new IllegalArgumentException("amount must be at most " + MAX);
        }
        // exact, and cheap: the scale is at most 2 and the magnitude at most MAX
        return amount.setScale(2);
    }
}
