package io.dsched.internal.management.views;

import io.dsched.internal.execution.ShardedFire;
import java.time.Instant;
import java.util.Map;

/**
 * A fire of a sharded job as a whole: where it stands and what its shards did.
 *
 * @param scheduledAt the fire's time
 * @param state {@code RUNNING} while a shard waits, runs or is to be retried, then {@code DONE} if
 *     every shard succeeded, {@code PARTIAL} if one was dead-lettered, {@code CANCELLED} otherwise
 * @param shards how many shards it was split into
 * @param succeeded the shards that succeeded
 * @param deadLettered the shards whose latest attempt was dead-lettered
 * @param unfinished the shards waiting, running or to be retried
 * @param firstStart when its first shard started, or {@code null}
 * @param lastEnd when a run of its shards last ended, or {@code null}
 * @param completionMillis milliseconds from the first start to the last end, once every shard has
 *     ended, else {@code null}
 * @param shardsByNode the shards that ran (or run), by the node of their latest attempt
 */
public record Fire(
        Instant scheduledAt,
        ShardedFire.State state,
        int shards,
        int succeeded,
        int deadLettered,
        int unfinished,
        Instant firstStart,
        Instant lastEnd,
        Long completionMillis,
        Map<String, Integer> shardsByNode) {

    /**
     * Shows a fire read from the history.
     * @param fire the fire
     * @return its view
     */
    public static Fire of(ShardedFire fire) {
        return new Fire(
                fire.scheduledAt(),
                fire.state(),
                fire.shards(),
                fire.succeeded(),
                fire.deadLettered(),
                fire.unfinished(),
                fire.firstStart(),
                fire.lastEnd(),
                (fire.completion() != null) ? fire.completion().toMillis() : null,
                fire.shardsByNode());
    }
}
