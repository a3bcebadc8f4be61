package io.dsched.internal.execution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.dsched.execution.ExecutionRecord;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ShardingTests {

    private static final Instant FIRE = Instant.parse("2026-12-07T00:00:00Z");

    @Test
    void aShardIsReadBackFromTheKeyOfItsAttempts() {
        String key = ExecutionRecord.idempotencyKey("settle", FIRE, 3, 10);
        assertThat(key).isEqualTo("settle@" + FIRE.toEpochMilli() + "#3/10");
        assertThat(Sharding.shardOf(key)).isEqualTo(new Sharding.Shard(3, 10));
        // a job whose name holds the marks is read from the key's end
        assertThat(Sharding.shardOf(ExecutionRecord.idempotencyKey("a#1/2", FIRE, 0, 4)))
                .isEqualTo(new Sharding.Shard(0, 4));
    }

    @Test
    void aKeyOfNoShardIsNoShard() {
        // a fire's key, a run by hand, a one-off's own key that merely looks like one
        assertThat(Sharding.shardOf(ExecutionRecord.idempotencyKey("settle", FIRE)))
                .isNull();
        assertThat(Sharding.shardOf("a#1/2@" + FIRE.toEpochMilli())).isNull();
        assertThat(Sharding.shardOf("order#x/2")).isNull();
        assertThat(Sharding.shardOf("order#2/2")).isNull();
        assertThat(Sharding.shardOf("order#-1/2")).isNull();
    }

    @Test
    void aShardsParameterIsItsIndexsAndOnlyShardsThatExistHaveOne() {
        Sharding sharding = new Sharding(3, Map.of(0, "Beijing", 2, "Shenzhen"));
        assertThat(sharding.param(0)).isEqualTo("Beijing");
        assertThat(sharding.param(1)).isNull();
        assertThat(sharding.param(2)).isEqualTo("Shenzhen");
        assertThatIllegalArgumentException().isThrownBy(() -> new Sharding(2, Map.of(2, "x")));
        assertThatIllegalArgumentException().isThrownBy(() -> new Sharding(0, Map.of()));
        assertThatIllegalArgumentException().isThrownBy(() -> new Sharding(Sharding.MAX + 1, Map.of()));
    }

    @Test
    void aBroadcastFireHasOneShardPerLiveNodeEachRecordedForItsNode() {
        JobTarget refresh = new JobTarget(
                "refresh",
                NodeGroups.DEFAULT,
                Fixtures.retries(1),
                null,
                true,
                null,
                null,
                null,
                Sharding.BROADCAST,
                (context, payload) -> {});
        Instant now = FIRE.minusMillis(5);
        List<ExecutionRecord> attempts =
                ShardFanOut.attempts(refresh, FIRE, "firing", List.of("a", "b", "c"), now, FIRE, false);
        assertThat(attempts)
                .extracting(ExecutionRecord::idempotencyKey)
                .containsExactly(
                        ExecutionRecord.idempotencyKey("refresh", FIRE, 0, 3),
                        ExecutionRecord.idempotencyKey("refresh", FIRE, 1, 3),
                        ExecutionRecord.idempotencyKey("refresh", FIRE, 2, 3));
        // each waits for its node alone, not for the node that took the fire
        assertThat(attempts).extracting(ExecutionRecord::nodeId).containsExactly("a", "b", "c");
        assertThat(attempts).allSatisfy((attempt) -> assertThat(attempt.dueAt()).isEqualTo(FIRE));
        // no live node runs it: no attempt
        assertThat(ShardFanOut.attempts(refresh, FIRE, "firing", List.of(), now, FIRE, false))
                .isEmpty();
        // held behind an earlier fire, each waits with no due time
        assertThat(ShardFanOut.attempts(refresh, FIRE, "firing", List.of("a"), now, FIRE, true))
                .singleElement()
                .satisfies((attempt) -> assertThat(attempt.dueAt()).isNull());
        assertThatIllegalArgumentException().isThrownBy(() -> new Sharding(0, Map.of(0, "x"), true, false));
    }
}
