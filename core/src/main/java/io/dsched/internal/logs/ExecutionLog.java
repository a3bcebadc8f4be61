package io.dsched.internal.logs;

import java.time.Instant;
import java.util.List;

/**
 * One row of {@code dsched_execution_log}: what one attempt logged on its thread while it ran, and
 * the stack trace it failed with.
 *
 * @param executionId the attempt's id in {@code dsched_execution}
 * @param jobName name of the job (or of the handler, for a one-off job)
 * @param lines the captured text, line by line, each event as {@code timestamp LEVEL logger -
 *     message}; an event with a stack trace or a message of several lines spans several lines
 * @param stackTrace the stack trace the attempt failed with, capped, or {@code null} after a
 *     success
 * @param truncated whether lines were left out because the attempt logged more than
 *     {@code dsched.logs.max-size}; the last line then says how many
 * @param createdAt when the attempt finished and the row was written
 */
public record ExecutionLog(
        long executionId, String jobName, List<String> lines, String stackTrace, boolean truncated, Instant createdAt) {

    /** Creates the record, with an unmodifiable copy of its lines. */
    public ExecutionLog {
        lines = List.copyOf(lines);
    }
}
