package io.dsched.store;

import io.dsched.execution.ExecutionStatus;
import java.time.Instant;
import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

/**
 * One row of {@code dsched_execution}: one attempt at one fire of one job.
 *
 * @param id generated id
 * @param jobName name of the job
 * @param scheduledAt time the fire was scheduled for
 * @param attempt attempt number, from 1
 * @param idempotencyKey key shared by every attempt at the fire
 * @param status state of the attempt
 * @param nodeId node that claimed the attempt
 * @param startedAt when the attempt was claimed, then when its method started
 * @param finishedAt when it ended, or {@code null} while it runs
 * @param errorClass class of the exception it failed with
 * @param errorMessage message of that exception
 * @param statusReason why it is in its state, for example why it was skipped
 */
@Table("dsched_execution")
public record ExecutionRecord(
        @Id Long id,
        String jobName,
        Instant scheduledAt,
        int attempt,
        String idempotencyKey,
        ExecutionStatus status,
        String nodeId,
        Instant startedAt,
        Instant finishedAt,
        String errorClass,
        String errorMessage,
        String statusReason) {

    /**
     * Creates the row that claims an attempt.
     * @param jobName name of the job
     * @param scheduledAt time the fire was scheduled for
     * @param attempt attempt number
     * @param nodeId claiming node
     * @param now the claim time
     * @return a new, unsaved row in state {@link ExecutionStatus#RUNNING}
     */
    public static ExecutionRecord claim(String jobName, Instant scheduledAt, int attempt, String nodeId, Instant now) {
        return new ExecutionRecord(
                null,
                jobName,
                scheduledAt,
                attempt,
                idempotencyKey(jobName, scheduledAt),
                ExecutionStatus.RUNNING,
                nodeId,
                now,
                null,
                null,
                null,
                null);
    }

    /**
     * The idempotency key of a fire: the job name and the scheduled time in epoch milliseconds.
     * @param jobName name of the job
     * @param scheduledAt time the fire was scheduled for
     * @return the key
     */
    public static String idempotencyKey(String jobName, Instant scheduledAt) {
        return jobName + "@" + scheduledAt.toEpochMilli();
    }
}
