package io.dsched.execution;

import java.time.Instant;

/**
 * What a running job knows about the fire it runs. Declare it as the only parameter of a
 * {@code @DistributedScheduled} method to receive it.
 */
public interface JobContext {

    /**
     * Returns the name of the job.
     * @return the unique job name
     */
    String jobName();

    /**
     * Returns the time this fire was scheduled for, which may be earlier than now.
     * @return the scheduled fire time
     */
    Instant scheduledAt();

    /**
     * Returns which attempt at this fire the run is, starting at 1.
     * @return the attempt number
     */
    int attempt();

    /**
     * Returns a key that is the same for every attempt at this fire (at this shard of it, for a
     * sharded job) and differs between fires; use it to make side effects happen once.
     * @return the idempotency key
     */
    String idempotencyKey();

    /**
     * Returns the node running this attempt.
     * @return the node id
     */
    String nodeId();

    /**
     * Returns the id of this attempt's row in {@code dsched_execution}.
     * @return the execution id
     */
    long executionId();

    /**
     * Returns the shard of the fire this attempt runs, for a job declared with {@code shards}: from 0
     * to {@link #shardCount()} - 1, so that each shard takes its part of the work, such as the orders
     * whose {@code id % shardCount() = shardIndex()}. A job without shards, and a run of a sharded
     * job by hand, runs the whole: shard 0 of 1.
     * @return the shard's index
     */
    default int shardIndex() {
        return 0;
    }

    /**
     * Returns how many shards the fire this attempt runs has: the job's {@code shards} when it
     * fired (a change of it takes effect from the next fire), or 1 for a job without shards.
     * @return the fire's number of shards
     */
    default int shardCount() {
        return 1;
    }

    /**
     * Returns the parameter the job's {@code shardParams} give this attempt's shard, such as
     * {@code "Shanghai"} for {@code "1=Shanghai"}.
     * @return the shard's parameter, or {@code null} if it has none
     */
    default String shardParam() {
        return null;
    }

    /**
     * Tells whether someone asked to stop this attempt (through {@code JobScheduler.cancel} or the
     * endpoint). A long job checks it between steps and returns early; the attempt then ends {@code
     * CANCELLED}, neither retried nor dead-lettered, however the method returns. A job that does not
     * end within {@code dsched.execution.cancel-grace} of the request is interrupted.
     * @return {@code true} once a stop was requested
     */
    default boolean isCancelled() {
        return false;
    }
}
