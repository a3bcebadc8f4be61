package io.dsched.internal.store;

import java.time.Instant;
import org.springframework.data.annotation.Id;
import org.springframework.data.relational.core.mapping.Table;

/**
 * One row of {@code dsched_dead_letter}: a fire whose last attempt failed with no retry left, or
 * with a failure not worth retrying.
 *
 * @param id generated id
 * @param jobName the job or one-off handler
 * @param scheduledAt time the fire was scheduled for
 * @param idempotencyKey key of the fire, kept by a replay
 * @param attempts how many attempts were made
 * @param executionId row of the last attempt in {@code dsched_execution}
 * @param errorClass class of the last failure
 * @param errorMessage message of the last failure
 * @param stackTrace stack trace of the last failure, capped in size
 * @param payload JSON payload of a one-off job, or {@code null}
 * @param firstFailedAt when the first attempt failed
 * @param lastFailedAt when the last attempt failed
 * @param nodeId node of the last attempt
 * @param status what an operator did with it
 * @param actedBy who replayed or discarded it
 * @param actedReason why
 * @param actedAt when
 */
@Table("dsched_dead_letter")
public record DeadLetter(
        @Id Long id,
        String jobName,
        Instant scheduledAt,
        String idempotencyKey,
        int attempts,
        long executionId,
        String errorClass,
        String errorMessage,
        String stackTrace,
        String payload,
        Instant firstFailedAt,
        Instant lastFailedAt,
        String nodeId,
        DeadLetterStatus status,
        String actedBy,
        String actedReason,
        Instant actedAt) {}
