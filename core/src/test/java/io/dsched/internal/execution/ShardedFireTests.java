package io.dsched.internal.execution;

import static org.assertj.core.api.Assertions.assertThat;

import io.dsched.execution.ExecutionOrigin;
import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.ExecutionStatus;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ShardedFireTests {

    private static final Instant FIRE = Instant.parse("2026-12-07T02:00:00Z");

    private static final Instant LATER = FIRE.plusSeconds(60);

    @Test
    void aFireWhoseShardsAllSucceededIsDoneAndTakesFromItsFirstStartToItsLastEnd() {
        List<ExecutionRecord> attempts = List.of(
                ran(FIRE, 0, 3, 1, ExecutionStatus.SUCCEEDED, "a", 1, 4),
                ran(FIRE, 1, 3, 1, ExecutionStatus.SUCCEEDED, "b", 2, 9),
                ran(FIRE, 2, 3, 1, ExecutionStatus.SUCCEEDED, "a", 5, 7));

        ShardedFire fire = ShardedFire.of("settle", attempts).get(0);

        assertThat(fire.state()).isEqualTo(ShardedFire.State.DONE);
        assertThat(fire.shards()).isEqualTo(3);
        assertThat(fire.succeeded()).isEqualTo(3);
        assertThat(fire.completion()).isEqualTo(Duration.ofSeconds(8));
        assertThat(fire.shardsByNode()).isEqualTo(Map.of("a", 2, "b", 1));
    }

    @Test
    void aShardCountsByItsLatestAttemptSoAReplayThatSucceededCompletesAPartialFire() {
        List<ExecutionRecord> attempts = new ArrayList<>(List.of(
                ran(FIRE, 0, 2, 1, ExecutionStatus.SUCCEEDED, "a", 1, 2),
                ran(FIRE, 1, 2, 1, ExecutionStatus.FAILED, "b", 1, 3),
                ran(FIRE, 1, 2, 2, ExecutionStatus.DEAD_LETTERED, "c", 4, 5)));

        ShardedFire partial = ShardedFire.of("settle", attempts).get(0);
        assertThat(partial.state()).isEqualTo(ShardedFire.State.PARTIAL);
        assertThat(partial.deadLettered()).isEqualTo(1);
        assertThat(partial.shardsByNode()).isEqualTo(Map.of("a", 1, "c", 1));
        assertThat(partial.completion()).isEqualTo(Duration.ofSeconds(4));

        // the replay waits: the fire runs again, and its queuing node and time are no run's
        attempts.add(waiting(FIRE, 1, 2, 3, "d", 600));
        ShardedFire replaying = ShardedFire.of("settle", attempts).get(0);
        assertThat(replaying.state()).isEqualTo(ShardedFire.State.RUNNING);
        assertThat(replaying.unfinished()).isEqualTo(1);
        assertThat(replaying.completion()).isNull();
        assertThat(replaying.shardsByNode()).isEqualTo(Map.of("a", 1));

        attempts.set(3, ran(FIRE, 1, 2, 3, ExecutionStatus.SUCCEEDED, "d", 600, 601));
        ShardedFire done = ShardedFire.of("settle", attempts).get(0);
        assertThat(done.state()).isEqualTo(ShardedFire.State.DONE);
        assertThat(done.completion()).isEqualTo(Duration.ofSeconds(600));
    }

    @Test
    void firesComeLatestFirstHeldAndWaitingShardsRunNoneAndRunsByHandAreLeftOut() {
        List<ExecutionRecord> attempts = List.of(
                ran(FIRE, 0, 2, 1, ExecutionStatus.SUCCEEDED, "a", 1, 2),
                ran(FIRE, 1, 2, 1, ExecutionStatus.RUNNING, "b", 1, -1),
                waiting(LATER, 0, 2, 1, "a", 60),
                waiting(LATER, 1, 2, 1, "a", 60),
                // a run by hand of the whole job, under a key of no shard
                ran(FIRE, -1, 1, 1, ExecutionStatus.SUCCEEDED, "a", 1, 2));

        List<ShardedFire> fires = ShardedFire.of("settle", attempts);

        assertThat(fires).extracting(ShardedFire::scheduledAt).containsExactly(LATER, FIRE);
        assertThat(fires.get(0).state()).isEqualTo(ShardedFire.State.RUNNING);
        assertThat(fires.get(0).firstStart()).isNull();
        assertThat(fires.get(0).shardsByNode()).isEmpty();
        assertThat(fires.get(1).state()).isEqualTo(ShardedFire.State.RUNNING);
        assertThat(fires.get(1).shards()).isEqualTo(2);
        assertThat(fires.get(1).shardsByNode()).isEqualTo(Map.of("a", 1, "b", 1));
        assertThat(fires.get(1).ended()).isFalse();
    }

    @Test
    void aShardTakenOverFromADeadNodeCountsOnceOnTheNodeThatRanItLastFromTheFirstStart() {
        List<ExecutionRecord> attempts = List.of(
                ran(FIRE, 0, 2, 1, ExecutionStatus.SUCCEEDED, "a", 1, 2),
                // node b died running shard 1; node a took it over
                ran(FIRE, 1, 2, 1, ExecutionStatus.FAILED, "b", 1, 30),
                ran(FIRE, 1, 2, 2, ExecutionStatus.SUCCEEDED, "a", 31, 33));

        ShardedFire fire = ShardedFire.of("settle", attempts).get(0);

        assertThat(fire.state()).isEqualTo(ShardedFire.State.DONE);
        assertThat(fire.succeeded()).isEqualTo(2);
        assertThat(fire.shardsByNode()).isEqualTo(Map.of("a", 2));
        assertThat(fire.completion()).isEqualTo(Duration.ofSeconds(32));
    }

    @Test
    void aHeldFireIsRunningWithNoShardStartedAndNoCompletion() {
        // written held (no due time) while an earlier fire's shards ran
        List<ExecutionRecord> attempts =
                List.of(held(waiting(LATER, 0, 2, 1, "a", 0)), held(waiting(LATER, 1, 2, 1, "a", 0)));

        ShardedFire fire = ShardedFire.of("settle", attempts).get(0);

        assertThat(fire.state()).isEqualTo(ShardedFire.State.RUNNING);
        assertThat(fire.unfinished()).isEqualTo(2);
        assertThat(fire.firstStart()).isNull();
        assertThat(fire.completion()).isNull();
        assertThat(fire.shardsByNode()).isEmpty();
    }

    @Test
    void aFireWhoseShardsEndedCancelledIsCancelledNotPartial() {
        List<ExecutionRecord> attempts = List.of(
                ran(FIRE, 0, 2, 1, ExecutionStatus.SUCCEEDED, "a", 1, 2),
                withStatus(waiting(FIRE, 1, 2, 1, "a", 0), ExecutionStatus.CANCELLED));

        ShardedFire fire = ShardedFire.of("settle", attempts).get(0);

        assertThat(fire.state()).isEqualTo(ShardedFire.State.CANCELLED);
        assertThat(fire.ended()).isTrue();
        assertThat(fire.completion()).isEqualTo(Duration.ofSeconds(1));
    }

    /** An attempt of a shard (or, for index -1, of the whole job) that ran, seconds after the fire. */
    private static ExecutionRecord ran(
            Instant fire, int index, int count, int attempt, ExecutionStatus status, String node, int start, int end) {
        String key = (index < 0) ? "settle@manual-1" : ExecutionRecord.idempotencyKey("settle", fire, index, count);
        return new ExecutionRecord(
                null,
                "settle",
                fire,
                attempt,
                key,
                status,
                node,
                fire.plusSeconds(start),
                (end < 0) ? null : fire.plusSeconds(end),
                null,
                null,
                null,
                ExecutionOrigin.SCHEDULE,
                fire,
                null,
                0,
                null);
    }

    /** A waiting attempt of a shard, queued by a node seconds after the fire. */
    private static ExecutionRecord waiting(Instant fire, int index, int count, int attempt, String node, int queued) {
        return ExecutionRecord.waiting(
                "settle",
                fire,
                attempt,
                ExecutionRecord.idempotencyKey("settle", fire, index, count),
                ExecutionOrigin.SCHEDULE,
                node,
                fire.plusSeconds(queued),
                fire.plusSeconds(queued),
                null,
                null);
    }

    private static ExecutionRecord held(ExecutionRecord attempt) {
        return ExecutionRecord.waiting(
                attempt.jobName(),
                attempt.scheduledAt(),
                attempt.attempt(),
                attempt.idempotencyKey(),
                attempt.origin(),
                attempt.nodeId(),
                attempt.startedAt(),
                null,
                null,
                "waiting for every shard of the job's earlier fires to end");
    }

    private static ExecutionRecord withStatus(ExecutionRecord attempt, ExecutionStatus status) {
        return new ExecutionRecord(
                attempt.id(),
                attempt.jobName(),
                attempt.scheduledAt(),
                attempt.attempt(),
                attempt.idempotencyKey(),
                status,
                attempt.nodeId(),
                attempt.startedAt(),
                attempt.scheduledAt().plusSeconds(5),
                null,
                null,
                null,
                attempt.origin(),
                attempt.dueAt(),
                null,
                0,
                null);
    }
}
