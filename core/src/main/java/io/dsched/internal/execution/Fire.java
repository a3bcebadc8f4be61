package io.dsched.internal.execution;

import java.time.Instant;

/**
 * A fire Quartz hands this node.
 *
 * @param jobName the job
 * @param scheduledAt the time it was scheduled for
 */
public record Fire(String jobName, Instant scheduledAt) {}
