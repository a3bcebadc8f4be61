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
     * Returns a key that is the same for every attempt at this fire and differs between fires;
     * use it to make side effects happen once.
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
