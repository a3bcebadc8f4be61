package io.dsched.annotation;

import io.dsched.definition.MisfirePolicy;
import io.dsched.retry.Retry;
import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a bean method to be run on a schedule by exactly one node of the cluster per fire.
 *
 * <p>Exactly one of {@link #cron()}, {@link #fixedRate()} and {@link #fixedDelay()} must be given.
 * The vocabulary is that of Spring's {@code @Scheduled}: cron expressions use Spring's six-field
 * syntax and macros such as {@code @hourly}; durations are strings such as {@code "10s"},
 * {@code "500ms"}, {@code "PT1M"} or a number of milliseconds, and may use {@code ${...}}
 * placeholders. The method takes no argument or a single {@link io.dsched.execution.JobContext}.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface DistributedScheduled {

    /** The value of {@link #cron()} that disables the job. */
    String CRON_DISABLED = "-";

    /**
     * Name of the job, unique in the cluster; defaults to {@code beanName.methodName}.
     */
    String name() default "";

    /**
     * A Spring cron expression (second, minute, hour, day of month, month, day of week) or a
     * macro; {@code "-"} disables the job.
     */
    String cron() default "";

    /** Time zone the cron expression is evaluated in; defaults to the JVM's zone. */
    String zone() default "";

    /** Interval between the starts of consecutive fires. */
    String fixedRate() default "";

    /** Interval between the end of one run and the start of the next. */
    String fixedDelay() default "";

    /** Delay before the first fire of a fixed-rate or fixed-delay job. */
    String initialDelay() default "";

    /**
     * How failed attempts are retried; attributes left at their defaults take the values of
     * {@code dsched.retry.*}. Use {@code @Retry(maxRetries = 0)} to dead-letter at the first
     * failure.
     */
    Retry retry() default @Retry;

    /**
     * Longest time a run may take, such as {@code "5m"}: the run is then interrupted, recorded
     * as {@code TIMED_OUT} and retried like a failure. Empty for no limit.
     */
    String timeout() default "";

    /** What becomes of fires that no node could start in time, such as while the cluster was down. */
    MisfirePolicy misfire() default MisfirePolicy.RUN_ONCE;

    /**
     * Longest time a run holds the job's lock, so that a dead node cannot block the job for
     * longer; defaults to {@code dsched.lock.at-most-for}.
     */
    String lockAtMostFor() default "";

    /**
     * Shortest time a run holds the job's lock, which keeps very short runs from firing again
     * on another node whose clock is behind; defaults to {@code dsched.lock.at-least-for}.
     */
    String lockAtLeastFor() default "";

    /**
     * The node group the job runs in, such as {@code "reports"} (or {@code "${...}"}): only nodes
     * whose {@code dsched.node.groups} include it run its fires, whichever node fired them. Empty
     * for the {@code default} group.
     */
    String group() default "";

    /**
     * Spreads the start of each fire over a window after its time, such as {@code "30s"} (or
     * {@code "${...}"}), so that many jobs on the same schedule do not start at once: each fire
     * starts at an offset of its own within the window, derived from the job and the fire's time,
     * the same on every node. The fire keeps its scheduled time in the history; it waits in the
     * queue until its offset time, and its lag counts from then. Empty to start each fire at its
     * time.
     */
    String jitter() default "";

    /**
     * Splits each fire into this many shards, such as {@code "10"} (or {@code "${...}"}), from 1 to
     * 1,000: one attempt per shard, each under an idempotency key of its own, claimed by any node
     * that runs the job (each node takes its share while others are free), and retried,
     * dead-lettered, timed out and taken over after a crash on its own. A run learns its part of the
     * work from {@link io.dsched.execution.JobContext#shardIndex()} and
     * {@link io.dsched.execution.JobContext#shardCount()}. The shards of a fire run beside each other,
     * without the job's lock; the next fire's shards wait, held, until every attempt of the job has
     * ended, and a fire that comes while one is held is skipped (a job keeps at most one fire held).
     * Empty for a job without shards.
     */
    String shards() default "";

    /**
     * A parameter for each shard that needs one, as {@code "index=value"}, such as
     * {@code {"0=Beijing", "1=Shanghai"}} (each may be {@code "${...}"}); a run reads its shard's
     * from {@link io.dsched.execution.JobContext#shardParam()}.
     */
    String[] shardParams() default {};

    /**
     * Runs each fire once on every live node that runs the job (in its group, if it has one), such
     * as a refresh of a node-local cache: the node that takes the fire writes one attempt for each
     * live node, which that node alone claims, retries and dead-letters; a run learns which of how
     * many nodes it is from {@link io.dsched.execution.JobContext#shardIndex()} and
     * {@link io.dsched.execution.JobContext#shardCount()}. An attempt whose node dies or leaves is
     * cancelled, not run elsewhere, and a node that joins later gets no earlier fire. As for shards,
     * the next fire waits, held, until every node's attempt of the job has ended. Not with
     * {@link #shards()}.
     */
    boolean broadcast() default false;

    /**
     * Lets the fires of a job with {@link #shards()} or {@link #broadcast()} overlap: a fire's
     * shards are written due at its time and start while an earlier fire's still run, each node
     * taking its share of each fire not ended (by default the next fire waits, held, until every
     * attempt of the job has ended, and fires that come meanwhile are skipped). Each fire still runs
     * each shard once. Only with shards or broadcast.
     */
    boolean overlap() default false;
}
