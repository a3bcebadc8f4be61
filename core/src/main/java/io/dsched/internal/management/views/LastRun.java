package io.dsched.internal.management.views;

import io.dsched.execution.ExecutionStatus;
import java.time.Instant;

/**
 * A job's latest finished attempt.
 *
 * @param executionId its id
 * @param status how it ended
 * @param finishedAt when
 */
public record LastRun(long executionId, ExecutionStatus status, Instant finishedAt) {}
