package io.dsched.internal.retry;

import io.dsched.retry.Retry;
import java.time.Duration;

/**
 * The values a {@link Retry} attribute takes when a job leaves it at its default.
 *
 * @param maxRetries retries after the first attempt
 * @param delay wait before the first retry
 * @param multiplier factor the wait grows by
 * @param maxDelay longest wait
 * @param jitter largest random amount added to or taken from a wait
 */
public record RetryDefaults(int maxRetries, Duration delay, double multiplier, Duration maxDelay, Duration jitter) {

    /** The defaults of {@code dsched.retry.*} when nothing is configured. */
    public static final RetryDefaults STANDARD =
            new RetryDefaults(3, Duration.ofSeconds(1), 2, Duration.ofMinutes(5), Duration.ofMillis(100));
}
