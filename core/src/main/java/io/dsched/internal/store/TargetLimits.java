package io.dsched.internal.store;

import java.time.Duration;

/**
 * The cluster-wide limits a node declares for a target, which it writes to the target's row in
 * {@code dsched_limit} and claims the target's attempts by.
 *
 * @param maxConcurrent the most of its attempts running at once, or 0 for no limit
 * @param rate the token bucket of its starts, or {@code null}
 * @param quota the most of its attempts claimed in each window, or {@code null}
 * @param keyRate the token bucket of the starts of each of its keys, or {@code null}
 * @param adaptive how its concurrency limit adapts to failures and signals, or {@code null} for a
 *     fixed limit
 * @param perKey whether its concurrency limit and key rate count each limit key apart
 * @param nodeRate the token bucket of the starts on each node, this node's own, or {@code null}
 */
public record TargetLimits(
        int maxConcurrent,
        PerPeriod rate,
        PerPeriod quota,
        PerPeriod keyRate,
        Adaptive adaptive,
        boolean perKey,
        PerPeriod nodeRate) {

    /** No limit at all. */
    public static final TargetLimits NONE = new TargetLimits(0, null, null, null, null, false, null);

    /**
     * Returns these limits as written to a target's row, without this node's own.
     * @param maxConcurrent the most running at once
     * @param rate the rate, or {@code null}
     * @param quota the quota, or {@code null}
     * @param keyRate the rate of each key, or {@code null}
     * @return the limits
     */
    public static TargetLimits ofRow(int maxConcurrent, PerPeriod rate, PerPeriod quota, PerPeriod keyRate) {
        return new TargetLimits(maxConcurrent, rate, quota, keyRate, null, false, null);
    }

    /**
     * Tells whether a target with these limits is claimed under its row's lock.
     * @return {@code true} if it has a concurrency limit, a rate, a quota or a rate of each key
     */
    public boolean any() {
        return this.maxConcurrent > 0 || this.rate != null || this.quota != null || this.keyRate != null;
    }

    static int permits(PerPeriod limit) {
        return (limit != null) ? limit.permits() : 0;
    }

    static long periodMillis(PerPeriod limit) {
        return (limit != null) ? limit.period().toMillis() : 0;
    }

    /**
     * A number of attempts per period.
     *
     * @param permits how many
     * @param period the period, whole milliseconds
     */
    public record PerPeriod(int permits, Duration period) {

        static PerPeriod of(int permits, long periodMillis) {
            return (permits > 0 && periodMillis > 0) ? new PerPeriod(permits, Duration.ofMillis(periodMillis)) : null;
        }
    }

    /**
     * How a concurrency limit adapts (additive increase, multiplicative decrease): at the end of
     * each window it is halved, not below {@code min}, if the window's failures reached
     * {@code failureRatio} of at least {@code minOutcomes} outcomes, or a load signal said overloaded;
     * otherwise, if the window ended any attempt and its failures stayed under the ratio, it goes up
     * by one, not above the {@code maxConcurrent} in force.
     *
     * @param failureRatio the share of failed outcomes that lowers it, above 0 and at most 1
     * @param window how long outcomes are counted before it is adjusted
     * @param minOutcomes the fewest outcomes a window needs for its failures to lower it
     * @param min the least it goes down to, at least 1
     */
    public record Adaptive(double failureRatio, Duration window, int minOutcomes, int min) {}
}
