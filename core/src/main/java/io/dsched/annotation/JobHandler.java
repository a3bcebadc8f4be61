package io.dsched.annotation;

import io.dsched.retry.Retry;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a bean method as a named handler for one-off jobs and runtime-defined recurring jobs.
 *
 * <p>The method takes the payload (any type Jackson can read from JSON), a
 * {@link io.dsched.execution.JobContext}, both, or neither:
 *
 * <pre>{@code
 * @JobHandler("order.timeout")
 * void cancelIfUnpaid(OrderTimeout payload, JobContext ctx) { ... }
 * }</pre>
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface JobHandler {

    /** Name of the handler, unique among the application's jobs and handlers. */
    String value();

    /** How failed attempts are retried; defaults come from {@code dsched.retry.*}. */
    Retry retry() default @Retry;

    /** Longest time a run may take, such as {@code "30s"}; empty for no limit. */
    String timeout() default "";

    /**
     * The node group the handler runs in, such as {@code "payments"} (or {@code "${...}"}): only
     * nodes whose {@code dsched.node.groups} include it run the one-off jobs and runtime jobs that
     * name the handler. Empty for the {@code default} group.
     */
    String group() default "";

    /**
     * The most attempts of the handler's one-off jobs running at once in the whole cluster, such
     * as {@code 3}; {@code 1} makes the handler a mutex. Counted in the database as attempts are
     * claimed, so that it holds across nodes, restarts and crashes: the attempts over it wait,
     * and a dead node's attempts count until they are taken over. {@code 0} for no limit.
     */
    int maxConcurrent() default 0;

    /**
     * Counts {@link #maxConcurrent()} (and {@link #keyRate()}) per key rather than for the handler as a whole: a JSON Pointer
     * into the payload, such as {@code "/tenant"} or {@code "/customer/region"} (or
     * {@code "${...}"}), whose value at submission is the attempt's key; {@code maxConcurrent = 3}
     * then lets three attempts of each tenant run at once. A payload without the value has the
     * empty key, shared by all such payloads. Empty to count the handler as a whole.
     */
    String partitionBy() default "";

    /**
     * The order in which the handler's one-off attempts are claimed among those due on a node's
     * queue: a higher priority first, then the earliest due. A one-off job may set its own
     * ({@link io.dsched.jobs.OneOff#priority(int)}). {@code 0} by default; negative for work that
     * gives way to the rest.
     */
    int priority() default 0;

    /**
     * The most attempts of the handler's one-off jobs claimed to start per period in the whole cluster,
     * such as {@code "50/1s"} or {@code "5000/1h"} (or {@code "${...}"}): a token bucket of that
     * many tokens, refilled evenly over the period, kept in the database and shared by the
     * nodes. Attempts over it wait; a full bucket lets a burst of that many start at once. Empty
     * for no limit.
     */
    String rate() default "";

    /**
     * The most attempts of the handler's one-off jobs claimed to start in each window of a period in
     * the whole cluster, such as {@code "10000/1d"} (or {@code "${...}"}): unlike a {@link #rate()},
     * which smooths starts, a quota lets them go as fast as they come until the window's permits are
     * used, and then holds the rest until the next window. Windows are counted from the epoch in
     * UTC: a day's window begins at midnight UTC, an hour's on the hour. Attempts over it wait.
     * Empty for no quota.
     */
    String quota() default "";

    /**
     * The most attempts of the handler's one-off jobs each node claims to start per period, such as
     * {@code "20/1s"} (or {@code "${...}"}): a token bucket of that many tokens, refilled evenly over
     * the period, each node's own, kept in its memory, for what is local to a node (its CPU, its
     * connections, an API key of its own). The cluster then starts up to that many per node; a
     * {@link #rate()} bounds the whole cluster. Attempts over it wait for this node's next tokens, or
     * for another node. Empty for no limit.
     */
    String nodeRate() default "";

    /**
     * The most attempts of each key ({@link #partitionBy()}) claimed to start per period in the
     * whole cluster, such as {@code "5/1s"} (or {@code "${...}"}): a token bucket of each key, as
     * {@link #rate()} is of the handler, so that each tenant gets its own rate. Needs a
     * {@code partitionBy}. Empty for no limit.
     */
    String keyRate() default "";

    /**
     * Makes {@link #maxConcurrent()} adapt to the handler's failures and to the application's load
     * signals; the default, with a {@code failureRatio} of 0, keeps it fixed.
     */
    Adaptive adaptive() default @Adaptive;
}
