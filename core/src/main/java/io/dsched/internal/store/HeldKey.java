package io.dsched.internal.store;

import java.time.Instant;

/**
 * The job a key was first submitted as.
 *
 * @param executionId its first attempt, which housekeeping may have deleted since
 * @param dueAt when it was due
 */
public record HeldKey(long executionId, Instant dueAt) {}
