package io.dsched.internal.execution;

import io.dsched.execution.JobContext;
import io.dsched.internal.retry.RetryPolicy;
import java.time.Duration;
import java.util.Objects;

/**
 * What an attempt runs: a scheduled job or a one-off handler, with the settings that govern its
 * runs.
 *
 * @param name the job or handler name
 * @param group the node group it runs in: only nodes that serve it run its attempts
 * @param retry how its failures are retried
 * @param timeout longest a run may take, or {@code null}
 * @param guarded whether runs must not overlap (scheduled jobs)
 * @param lockAtMostFor longest a run holds the guard, or {@code null} for the default
 * @param lockAtLeastFor shortest a run holds the guard, or {@code null} for the default
 * @param jitter the window a scheduled job's fires are spread over, or {@code null}
 * @param shards how a scheduled job splits each fire, or {@code null} for a job without shards
 * @param invoker runs it
 */
public record JobTarget(
        String name,
        String group,
        RetryPolicy retry,
        Duration timeout,
        boolean guarded,
        Duration lockAtMostFor,
        Duration lockAtLeastFor,
        Duration jitter,
        Sharding shards,
        Invoker invoker) {

    public JobTarget {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(retry, "retry");
        Objects.requireNonNull(invoker, "invoker");
    }

    /**
     * Returns this target split into other shards: those set at run time.
     * @param sharding the shards
     * @return the target with them
     */
    public JobTarget withShards(Sharding sharding) {
        return new JobTarget(
                this.name,
                this.group,
                this.retry,
                this.timeout,
                this.guarded,
                this.lockAtMostFor,
                this.lockAtLeastFor,
                this.jitter,
                sharding,
                this.invoker);
    }

    /** Runs a target once. */
    @FunctionalInterface
    public interface Invoker {

        /**
         * Runs the target.
         * @param context the attempt
         * @param payload the JSON payload of a one-off job, or {@code null}
         * @throws Exception whatever the job throws
         */
        void invoke(JobContext context, String payload) throws Exception;
    }
}
