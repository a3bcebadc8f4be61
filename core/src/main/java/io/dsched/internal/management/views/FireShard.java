package io.dsched.internal.management.views;

import io.dsched.execution.ExecutionStatus;
import java.time.Instant;

/**
 * One shard of a fire, as its latest attempt stands.
 *
 * @param index the shard, from 0
 * @param attempts how many attempts it has had (retries, takeovers and replays among them)
 * @param status its latest attempt's state
 * @param nodeId the node of its latest attempt: the node that ran it, or while it waits the node
 *     that wrote it (a broadcast job's: the node it is for)
 * @param startedAt when its latest attempt started (while it waits: when it was written)
 * @param finishedAt when its latest attempt ended, or {@code null}
 * @param executionId its latest attempt
 */
public record FireShard(
        int index,
        int attempts,
        ExecutionStatus status,
        String nodeId,
        Instant startedAt,
        Instant finishedAt,
        long executionId) {}
