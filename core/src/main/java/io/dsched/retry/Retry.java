package io.dsched.retry;

import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * How a job's failed attempts are retried, named like Spring Framework 7's {@code @Retryable}.
 * An attribute left at its default takes the value of {@code dsched.retry.*}.
 *
 * <p>The n-th retry waits {@code delay * multiplier^(n-1)}, at most {@code maxDelay}, plus or
 * minus a random {@code jitter}. When no attempt is left, or the failure is not worth retrying,
 * the fire is dead-lettered.
 */
@Target({})
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Retry {

    /**
     * How many times to retry after the first attempt; {@code -1} for the default. Give this or
     * {@link #maxAttempts()}, not both.
     */
    int maxRetries() default -1;

    /** How many attempts in all, the first included; {@code -1} for the default. */
    int maxAttempts() default -1;

    /** Wait before the first retry, such as {@code "1s"}. */
    String delay() default "";

    /** Factor the wait grows by from one retry to the next; {@code 0} for the default. */
    double multiplier() default 0;

    /** Longest wait between two attempts, such as {@code "5m"}. */
    String maxDelay() default "";

    /** Largest random amount added to or taken from each wait, such as {@code "100ms"}. */
    String jitter() default "";

    /**
     * Failures to retry; when given, any other failure is dead-lettered at once. Causes are
     * matched too.
     */
    Class<? extends Throwable>[] includes() default {};

    /** Failures never to retry, on top of {@link NonRetryableJobException} and {@link IllegalArgumentException}. */
    Class<? extends Throwable>[] excludes() default {};
}
