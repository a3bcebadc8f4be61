package io.dsched.internal.store;

import java.time.Duration;
import java.time.Instant;

/** The arithmetic of the token buckets kept in the database: a target's rate and each key's. */
final class Buckets {

    private Buckets() {}

    /**
     * A bucket's tokens at a time: refilled evenly since its last refill, up to its permits.
     * @param tokens the tokens at its last refill
     * @param refilledAt its last refill, or {@code null}
     * @param permits its permits per period, or 0
     * @param periodMillis its period
     * @param at the time
     * @return the tokens then
     */
    static double refilled(double tokens, Instant refilledAt, int permits, long periodMillis, Instant at) {
        if (permits <= 0 || periodMillis <= 0 || refilledAt == null) {
            return tokens;
        }
        double elapsedMillis = Math.max(0, Duration.between(refilledAt, at).toNanos() / 1e6);
        return Math.min(permits, tokens + elapsedMillis * permits / periodMillis);
    }
}
