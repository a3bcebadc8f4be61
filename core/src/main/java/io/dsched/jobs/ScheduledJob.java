package io.dsched.jobs;

import java.time.Instant;

/**
 * A one-off job as it was scheduled.
 *
 * @param executionId its row in {@code dsched_execution}
 * @param handler the handler it runs
 * @param idempotencyKey its key
 * @param dueAt when it falls due
 * @param created {@code false} if an earlier submission with the same key had scheduled it
 */
public record ScheduledJob(long executionId, String handler, String idempotencyKey, Instant dueAt, boolean created) {}
