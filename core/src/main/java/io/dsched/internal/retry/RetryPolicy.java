package io.dsched.internal.retry;

import io.dsched.retry.NonRetryableJobException;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * The resolved retry settings of one job.
 *
 * @param maxAttempts attempts in all, the first included (1 means no retry)
 * @param delay wait before the first retry
 * @param multiplier factor the wait grows by
 * @param maxDelay longest wait
 * @param jitter largest random amount added to or taken from a wait
 * @param includes failures to retry; empty for all but the excluded
 * @param excludes failures never to retry
 */
public record RetryPolicy(
        int maxAttempts,
        Duration delay,
        double multiplier,
        Duration maxDelay,
        Duration jitter,
        List<Class<? extends Throwable>> includes,
        List<Class<? extends Throwable>> excludes) {

    /** Failures a job throws that are never retried, whatever the policy says. */
    public static final List<Class<? extends Throwable>> ALWAYS_EXCLUDED =
            List.of(NonRetryableJobException.class, IllegalArgumentException.class);

    public RetryPolicy {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1, was " + maxAttempts);
        }
        if (multiplier < 1) {
            throw new IllegalArgumentException("multiplier must be at least 1, was " + multiplier);
        }
        Objects.requireNonNull(delay, "delay");
        Objects.requireNonNull(maxDelay, "maxDelay");
        Objects.requireNonNull(jitter, "jitter");
        includes = List.copyOf(includes);
        excludes = List.copyOf(excludes);
    }

    /**
     * Whether another attempt may follow a failed one.
     * @param attempt the attempt that failed, from 1
     * @param failure what it failed with
     * @return {@code true} to retry
     */
    public boolean shouldRetry(int attempt, Throwable failure) {
        return attempt < this.maxAttempts && isRetryable(failure);
    }

    /**
     * Whether a failure is worth retrying at all.
     * @param failure the failure
     * @return {@code false} for excluded failures, or those not included when includes are given
     */
    public boolean isRetryable(Throwable failure) {
        if (ALWAYS_EXCLUDED.stream().anyMatch((type) -> type.isInstance(failure)) || matches(this.excludes, failure)) {
            return false;
        }
        return this.includes.isEmpty() || matches(this.includes, failure);
    }

    /**
     * Returns the wait before the attempt after the given one.
     * @param attempt the attempt that failed, from 1
     * @param random source of the jitter
     * @return the wait, never negative
     */
    public Duration backoff(int attempt, RandomGenerator random) {
        double millis = this.delay.toMillis() * Math.pow(this.multiplier, attempt - 1);
        long capped = (long) Math.min(millis, this.maxDelay.toMillis());
        long jitter = this.jitter.toMillis();
        long spread = (jitter > 0) ? random.nextLong(-jitter, jitter + 1) : 0;
        return Duration.ofMillis(Math.max(0, capped + spread));
    }

    private static boolean matches(List<Class<? extends Throwable>> types, Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = (cause.getCause() != cause) ? cause.getCause() : null) {
            for (Class<? extends Throwable> type : types) {
                if (type.isInstance(cause)) {
                    return true;
                }
            }
        }
        return false;
    }
}
