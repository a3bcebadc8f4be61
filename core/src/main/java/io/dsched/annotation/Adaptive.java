package io.dsched.annotation;

import java.lang.annotation.Documented;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Makes a handler's {@code maxConcurrent} adapt to how its attempts fare (additive increase,
 * multiplicative decrease, as TCP and Netflix's concurrency limits do): the cluster counts the
 * handler's outcomes in windows of {@link #window()}, and at the end of each window halves the
 * limit in force, not below {@link #min()}, when its failures reached {@link #failureRatio()} of at
 * least {@link #minOutcomes()} outcomes, or an application's {@link io.dsched.execution.LoadSignal}
 * said overloaded; otherwise, once attempts end with fewer failures, it raises the limit by one a
 * window, up to {@code maxConcurrent}. The limit and its counts are kept in the handler's row of
 * {@code dsched_limit}, so that the whole cluster claims by one adapted limit.
 *
 * <pre>{@code
 * @JobHandler(value = "partner.sync", maxConcurrent = 20,
 *         adaptive = @Adaptive(failureRatio = 0.2, window = "10s", min = 2))
 * }</pre>
 */
@Target({})
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface Adaptive {

    /**
     * The share of a window's outcomes that failed (retried or dead-lettered) at or above which
     * the limit is halved, above 0 and at most 1, such as {@code 0.2}; {@code 0}, the default, for
     * a fixed limit.
     */
    double failureRatio() default 0;

    /** How long outcomes are counted before the limit is adjusted, such as {@code "10s"}. */
    String window() default "10s";

    /** The fewest outcomes in a window whose failures lower the limit. */
    int minOutcomes() default 10;

    /** The least the limit goes down to, at least 1. */
    int min() default 1;
}
