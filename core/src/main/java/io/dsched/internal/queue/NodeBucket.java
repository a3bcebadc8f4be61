package io.dsched.internal.queue;

import io.dsched.internal.store.TargetLimits;
import java.util.function.LongSupplier;

/**
 * A target's node-local rate ({@code nodeRate}): a token bucket in this node's memory, holding up
 * to the rate's permits, refilled evenly over its period by a monotonic clock, and a token taken by
 * each attempt this node claims. Used by its lane's poller alone.
 */
final class NodeBucket {

    private final int permits;

    private final double nanosPerToken;

    private final LongSupplier nanoTime;

    private double tokens;

    private long refilledAt;

    NodeBucket(TargetLimits.PerPeriod rate, LongSupplier nanoTime) {
        this.permits = rate.permits();
        this.nanosPerToken = (double) rate.period().toNanos() / rate.permits();
        this.nanoTime = nanoTime;
        // a new bucket is full, as the cluster's are
        this.tokens = rate.permits();
        this.refilledAt = nanoTime.getAsLong();
    }

    /**
     * Returns how many attempts may be claimed now.
     * @return the whole tokens in the bucket
     */
    int available() {
        long now = this.nanoTime.getAsLong();
        this.tokens = Math.min(this.permits, this.tokens + (now - this.refilledAt) / this.nanosPerToken);
        this.refilledAt = now;
        return (int) Math.floor(this.tokens);
    }

    /**
     * Takes the tokens of attempts claimed.
     * @param claimed how many were claimed
     */
    void take(int claimed) {
        this.tokens -= claimed;
    }
}
