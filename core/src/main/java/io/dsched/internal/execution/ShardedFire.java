package io.dsched.internal.execution;

import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.ExecutionStatus;
import io.dsched.internal.store.ExecutionStore;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A fire of a sharded job as a whole, read from its shards' attempts: each shard counts by its
 * latest attempt, so a shard retried, taken over or replayed counts once, as it last ended.
 *
 * @param jobName the job
 * @param scheduledAt the fire's time
 * @param shards how many shards it was split into
 * @param succeeded the shards that succeeded
 * @param deadLettered the shards whose latest attempt was dead-lettered
 * @param unfinished the shards waiting (held ones among them), running or to be retried
 * @param firstStart when its first shard started, or {@code null} if none has
 * @param lastEnd when a run of its shards last ended, or {@code null} if none has
 * @param shardsByNode the shards whose latest attempt ran (or runs), by its node, in the nodes' order
 */
public record ShardedFire(
        String jobName,
        Instant scheduledAt,
        int shards,
        int succeeded,
        int deadLettered,
        int unfinished,
        Instant firstStart,
        Instant lastEnd,
        Map<String, Integer> shardsByNode) {

    /** Where a fire stands. */
    public enum State {
        /** Shards not started yet, or some of them running or waiting for a retry. */
        RUNNING,
        /** Every shard ended, and at least one was dead-lettered. */
        PARTIAL,
        /** Every shard ended, none dead-lettered, and not all succeeded: some were cancelled. */
        CANCELLED,
        /** Every shard succeeded. */
        DONE
    }

    public ShardedFire {
        shardsByNode = Collections.unmodifiableMap(new TreeMap<>(shardsByNode));
    }

    /**
     * Tells where the fire stands.
     * @return its state
     */
    public State state() {
        if (this.unfinished > 0) {
            return State.RUNNING;
        }
        if (this.deadLettered > 0) {
            return State.PARTIAL;
        }
        return (this.succeeded < this.shards) ? State.CANCELLED : State.DONE;
    }

    /**
     * Tells whether every shard of the fire has ended.
     * @return {@code true} once none is waiting, running or to be retried
     */
    public boolean ended() {
        return state() != State.RUNNING;
    }

    /**
     * Returns how long the fire took, from its first shard's start to its last shard's end.
     * @return the time, or {@code null} while it has not ended or if no shard ran
     */
    public Duration completion() {
        return (ended() && this.firstStart != null && this.lastEnd != null)
                ? Duration.between(this.firstStart, this.lastEnd)
                : null;
    }

    /**
     * Reads a job's latest fires from the history, as wholes.
     * @param store the execution history
     * @param jobName the job
     * @param most how many of its latest fires to read
     * @return those of them that were split into shards, the latest first
     */
    public static List<ShardedFire> latest(ExecutionStore store, String jobName, int most) {
        List<Instant> fires = store.shardedFires().latestFires(jobName, most);
        if (fires.isEmpty()) {
            return List.of();
        }
        return of(jobName, store.shardedFires().shardAttempts(jobName, fires.get(fires.size() - 1), fires.get(0)));
    }

    /**
     * Gathers the attempts of a sharded job into its fires; attempts whose key names no shard (a run
     * by hand of the whole job) are left out.
     * @param jobName the job
     * @param attempts attempts of the job, in any order
     * @return its fires, the latest first
     */
    public static List<ShardedFire> of(String jobName, List<ExecutionRecord> attempts) {
        Map<Instant, Map<String, List<ExecutionRecord>>> byFire = new TreeMap<>(Comparator.reverseOrder());
        for (ExecutionRecord attempt : attempts) {
            if (Sharding.shardOf(attempt.idempotencyKey()) != null) {
                byFire.computeIfAbsent(attempt.scheduledAt(), (at) -> new HashMap<>())
                        .computeIfAbsent(attempt.idempotencyKey(), (key) -> new ArrayList<>())
                        .add(attempt);
            }
        }
        List<ShardedFire> fires = new ArrayList<>();
        byFire.forEach((at, shards) -> fires.add(fire(jobName, at, shards)));
        return fires;
    }

    private static ShardedFire fire(String jobName, Instant scheduledAt, Map<String, List<ExecutionRecord>> shards) {
        int count = 0;
        int succeeded = 0;
        int deadLettered = 0;
        int unfinished = 0;
        Instant firstStart = null;
        Instant lastEnd = null;
        Map<String, Integer> byNode = new TreeMap<>();
        for (Map.Entry<String, List<ExecutionRecord>> shard : shards.entrySet()) {
            count = Math.max(count, Sharding.shardOf(shard.getKey()).count());
            for (ExecutionRecord attempt : shard.getValue()) {
                if (ran(attempt)) {
                    firstStart = earlier(firstStart, attempt.startedAt());
                    lastEnd = later(lastEnd, attempt.finishedAt());
                }
            }
            ExecutionRecord latest = shard.getValue().stream()
                    .max(Comparator.comparingInt(ExecutionRecord::attempt))
                    .orElseThrow();
            ExecutionStatus status = latest.status();
            if (status == ExecutionStatus.SUCCEEDED) {
                succeeded++;
            } else if (status == ExecutionStatus.DEAD_LETTERED) {
                deadLettered++;
            } else if (!status.isTerminal()) {
                unfinished++;
            }
            if (ran(latest)) {
                byNode.merge(latest.nodeId(), 1, Integer::sum);
            }
        }
        return new ShardedFire(
                jobName, scheduledAt, count, succeeded, deadLettered, unfinished, firstStart, lastEnd, byNode);
    }

    /**
     * Whether an attempt was claimed and run: its start and node are then the run's (a waiting
     * attempt's are when and where it was queued).
     */
    private static boolean ran(ExecutionRecord attempt) {
        return switch (attempt.status()) {
            case RUNNING, SUCCEEDED, FAILED, TIMED_OUT, DEAD_LETTERED -> attempt.startedAt() != null;
            case SCHEDULED, RETRY_SCHEDULED, SKIPPED, CANCELLED -> false;
        };
    }

    private static Instant earlier(Instant one, Instant other) {
        return (one == null || (other != null && other.isBefore(one))) ? other : one;
    }

    private static Instant later(Instant one, Instant other) {
        return (one == null || (other != null && other.isAfter(one))) ? other : one;
    }
}
