package io.dsched.internal.management;

import io.dsched.execution.ExecutionStatus;
import java.time.Instant;

/**
 * An attempt as the timeline counts it.
 *
 * @param status its state
 * @param origin what started it ({@code SCHEDULE} for a fire of the job's schedule)
 * @param attempt its number, from 1
 * @param scheduledAt the time its fire was due
 * @param startedAt the time it started
 */
public record StartedAttempt(
        ExecutionStatus status, String origin, int attempt, Instant scheduledAt, Instant startedAt) {}
