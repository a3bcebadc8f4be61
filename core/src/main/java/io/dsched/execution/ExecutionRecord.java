package io.dsched.execution;

import java.time.Instant;
import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

/**
 * One row of {@code dsched_execution}: one attempt at one fire of one job.
 *
 * @param id generated id
 * @param jobName name of the job (or of the handler, for a one-off job)
 * @param scheduledAt time the fire was scheduled for
 * @param attempt attempt number, from 1
 * @param idempotencyKey key shared by every attempt at the fire
 * @param status state of the attempt
 * @param nodeId node that claimed the attempt, or that scheduled it while it waits
 * @param startedAt when its method started (while it waits: when it was scheduled)
 * @param finishedAt when it ended, or {@code null}
 * @param errorClass class of the exception it failed with
 * @param errorMessage message of that exception
 * @param statusReason why it is in its state, for example why it was skipped
 * @param origin why the attempt exists
 * @param dueAt when a waiting attempt falls due, or {@code null}
 * @param payload the JSON payload of a one-off job; for a shard of a sharded job's fire, its
 *     parameter as a JSON string; else {@code null}
 * @param priority the order in which waiting attempts are claimed: higher first, then the earliest
 *     due; {@code 0} unless its handler or one-off job sets one
 * @param limitKey the key its handler's concurrency limit counts it by (its {@code partitionBy}),
 *     or {@code null}
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
        String statusReason,
        ExecutionOrigin origin,
        Instant dueAt,
        String payload,
        int priority,
        String limitKey) {

    /**
     * Creates the row that claims the first attempt at a scheduled fire.
     * @param jobName name of the job
     * @param scheduledAt time the fire was scheduled for
     * @param nodeId claiming node
     * @param now the claim time
     * @return a new, unsaved row in state {@link ExecutionStatus#RUNNING}
     */
    public static ExecutionRecord claim(String jobName, Instant scheduledAt, String nodeId, Instant now) {
        return new ExecutionRecord(
                null,
                jobName,
                scheduledAt,
                1,
                idempotencyKey(jobName, scheduledAt),
                ExecutionStatus.RUNNING,
                nodeId,
                now,
                null,
                null,
                null,
                null,
                ExecutionOrigin.SCHEDULE,
                null,
                null,
                0,
                null);
    }

    /**
     * Creates a waiting attempt that any node may claim once it falls due.
     * @param jobName name of the job or handler
     * @param scheduledAt time the fire was scheduled for
     * @param attempt attempt number
     * @param idempotencyKey key of the fire
     * @param origin why it exists
     * @param nodeId node scheduling it
     * @param now the time it is scheduled
     * @param dueAt when it falls due
     * @param payload JSON payload, or {@code null}
     * @param reason why, or {@code null}
     * @return a new, unsaved row in state {@link ExecutionStatus#SCHEDULED} (for a first attempt)
     *     or {@link ExecutionStatus#RETRY_SCHEDULED}
     */
    public static ExecutionRecord waiting(
            String jobName,
            Instant scheduledAt,
            int attempt,
            String idempotencyKey,
            ExecutionOrigin origin,
            String nodeId,
            Instant now,
            Instant dueAt,
            String payload,
            String reason) {
        ExecutionStatus status = (attempt == 1) ? ExecutionStatus.SCHEDULED : ExecutionStatus.RETRY_SCHEDULED;
        return new ExecutionRecord(
                null,
                jobName,
                scheduledAt,
                attempt,
                idempotencyKey,
                status,
                nodeId,
                now,
                null,
                null,
                null,
                reason,
                origin,
                dueAt,
                payload,
                0,
                null);
    }

    /**
     * Creates the attempt that follows this one, waiting until it falls due.
     * @param origin why it exists
     * @param nodeId node scheduling it
     * @param now the time it is scheduled
     * @param dueAt when it falls due
     * @param reason why, or {@code null}
     * @return a new, unsaved row in state {@link ExecutionStatus#RETRY_SCHEDULED}
     */
    public ExecutionRecord next(ExecutionOrigin origin, String nodeId, Instant now, Instant dueAt, String reason) {
        return waiting(
                        this.jobName,
                        this.scheduledAt,
                        this.attempt + 1,
                        this.idempotencyKey,
                        origin,
                        nodeId,
                        now,
                        dueAt,
                        this.payload,
                        reason)
                .queued(this.priority, this.limitKey);
    }

    /**
     * Returns this row with the order it is claimed in and the key its limit counts it by.
     * @param priority higher first
     * @param limitKey the key of its handler's concurrency limit, or {@code null}
     * @return the row
     */
    public ExecutionRecord queued(int priority, String limitKey) {
        return new ExecutionRecord(
                this.id,
                this.jobName,
                this.scheduledAt,
                this.attempt,
                this.idempotencyKey,
                this.status,
                this.nodeId,
                this.startedAt,
                this.finishedAt,
                this.errorClass,
                this.errorMessage,
                this.statusReason,
                this.origin,
                this.dueAt,
                this.payload,
                priority,
                limitKey);
    }

    /**
     * The idempotency key of a scheduled fire: the job name and the scheduled time in epoch
     * milliseconds.
     * @param jobName name of the job
     * @param scheduledAt time the fire was scheduled for
     * @return the key
     */
    public static String idempotencyKey(String jobName, Instant scheduledAt) {
        return jobName + "@" + scheduledAt.toEpochMilli();
    }

    /**
     * The idempotency key of one shard of a sharded job's fire: the fire's key, the shard's index
     * and the fire's number of shards, such as {@code settle@1767225600000#3/10}.
     * @param jobName name of the job
     * @param scheduledAt time the fire was scheduled for
     * @param shardIndex the shard, from 0
     * @param shardCount the fire's shards
     * @return the key
     */
    public static String idempotencyKey(String jobName, Instant scheduledAt, int shardIndex, int shardCount) {
        return idempotencyKey(jobName, scheduledAt) + "#" + shardIndex + "/" + shardCount;
    }

    /**
     * Returns this row with the id the database gave it.
     * @param id the id
     * @return the saved row
     */
    public ExecutionRecord withId(long id) {
        return new ExecutionRecord(
                id,
                this.jobName,
                this.scheduledAt,
                this.attempt,
                this.idempotencyKey,
                this.status,
                this.nodeId,
                this.startedAt,
                this.finishedAt,
                this.errorClass,
                this.errorMessage,
                this.statusReason,
                this.origin,
                this.dueAt,
                this.payload,
                this.priority,
                this.limitKey);
    }

    /**
     * Returns this row as claimed by a node.
     * @param nodeId the claiming node
     * @param now the claim time
     * @return the claimed row
     */
    public ExecutionRecord claimedBy(String nodeId, Instant now) {
        return new ExecutionRecord(
                this.id,
                this.jobName,
                this.scheduledAt,
                this.attempt,
                this.idempotencyKey,
                ExecutionStatus.RUNNING,
                nodeId,
                now,
                null,
                null,
                null,
                this.statusReason,
                this.origin,
                this.dueAt,
                this.payload,
                this.priority,
                this.limitKey);
    }
}
