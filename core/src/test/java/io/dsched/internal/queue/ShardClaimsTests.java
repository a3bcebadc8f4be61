package io.dsched.internal.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.dsched.execution.ExecutionOrigin;
import io.dsched.execution.ExecutionRecord;
import io.dsched.internal.execution.JobTarget;
import io.dsched.internal.execution.JobTargets;
import io.dsched.internal.execution.NodeGroups;
import io.dsched.internal.execution.Sharding;
import io.dsched.internal.retry.RetryPolicy;
import io.dsched.internal.store.InMemoryStore;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ShardClaimsTests {

    private final InMemoryStore database = new InMemoryStore();

    @AfterEach
    void close() {
        this.database.store().close();
    }

    @Test
    void aNodesShareIsAnEqualPartOfAFiresShardsRoundedUp() {
        assertThat(ShardClaims.share(12, 3)).isEqualTo(4);
        assertThat(ShardClaims.share(12, 5)).isEqualTo(3);
        assertThat(ShardClaims.share(2, 3)).isEqualTo(1);
        // alone, or before it sees any node alive (its own row included), a node takes them all
        assertThat(ShardClaims.share(12, 1)).isEqualTo(12);
        assertThat(ShardClaims.share(12, 0)).isEqualTo(12);
    }

    @Test
    void aHeldFireLetGoIsAnnouncedOnceAndNothingIsAnnouncedWhenNoFireIsLetGo() {
        JobTarget job = sharded("reconcile", new Sharding(2, Map.of()));
        List<String> announced = new CopyOnWriteArrayList<>();
        ShardClaims claims =
                new ShardClaims(this.database.store(), targets(job), "node-1", (group) -> 1, announced::add);
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);

        claims.letGoHeld(Set.of("reconcile"), now, true);
        assertThat(announced).as("no fire held").isEmpty();

        // a fire written held: its two shards wait with no due time
        Instant fire = now.minusSeconds(1);
        for (int shard = 0; shard < 2; shard++) {
            this.database
                    .executions()
                    .save(ExecutionRecord.waiting(
                            "reconcile",
                            fire,
                            1,
                            ExecutionRecord.idempotencyKey("reconcile", fire, shard, 2),
                            ExecutionOrigin.SCHEDULE,
                            "node-2",
                            now,
                            null,
                            null,
                            "held"));
        }
        // behind a shard of the fire before, which runs
        ExecutionRecord running = this.database
                .executions()
                .save(ExecutionRecord.waiting(
                                "reconcile",
                                fire.minusSeconds(1),
                                1,
                                ExecutionRecord.idempotencyKey("reconcile", fire.minusSeconds(1), 0, 2),
                                ExecutionOrigin.SCHEDULE,
                                "node-2",
                                now,
                                now,
                                null,
                                null)
                        .claimedBy("node-2", now));
        claims.letGoHeld(Set.of("reconcile"), now, true);
        assertThat(announced).as("held behind a running shard: not let go").isEmpty();

        this.database.executions().deleteById(running.id());
        claims.letGoHeld(Set.of("reconcile"), now, true);
        claims.letGoHeld(Set.of("reconcile"), now, true);

        assertThat(announced).as("announced as it was let go, once").containsExactly("reconcile");
        assertThat(this.database.executions().findByJobName("reconcile"))
                .allSatisfy((shard) -> assertThat(shard.dueAt()).isEqualTo(now));
    }

    @Test
    void aNodeClaimsTheAttemptsOfABroadcastFireRecordedForItAndNoOthers() {
        JobTarget job = sharded("refresh", Sharding.BROADCAST);
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        Instant fire = now.minusSeconds(1);
        List<String> nodes = List.of("node-a", "node-b", "node-c");
        for (int index = 0; index < nodes.size(); index++) {
            this.database
                    .executions()
                    .save(ExecutionRecord.waiting(
                            "refresh",
                            fire,
                            1,
                            ExecutionRecord.idempotencyKey("refresh", fire, index, nodes.size()),
                            ExecutionOrigin.SCHEDULE,
                            nodes.get(index),
                            now,
                            fire,
                            null,
                            null));
        }
        // ten live nodes would give each a share of one of three: a broadcast attempt is no share
        ShardClaims b = new ShardClaims(this.database.store(), targets(job), "node-b", (group) -> 10, (name) -> {});
        ShardClaims d = new ShardClaims(this.database.store(), targets(job), "node-d", (group) -> 10, (name) -> {});

        // a run by hand of the job: for any node
        this.database
                .executions()
                .save(ExecutionRecord.waiting(
                        "refresh",
                        fire.plusMillis(1),
                        1,
                        ExecutionRecord.idempotencyKey("refresh", fire.plusMillis(1)),
                        ExecutionOrigin.MANUAL,
                        "node-a",
                        now,
                        fire,
                        null,
                        null));
        assertThat(d.claim(job, now, 10))
                .as("a node the fire was not written for takes the run by hand alone")
                .singleElement()
                .extracting(ExecutionRecord::idempotencyKey)
                .isEqualTo(ExecutionRecord.idempotencyKey("refresh", fire.plusMillis(1)));
        assertThat(b.claim(job, now, 10)).singleElement().satisfies((claimed) -> {
            assertThat(claimed.idempotencyKey()).isEqualTo(ExecutionRecord.idempotencyKey("refresh", fire, 1, 3));
            assertThat(claimed.nodeId()).isEqualTo("node-b");
        });
        assertThat(b.claim(job, now, 10)).as("claimed once").isEmpty();
        // the others' still wait, for their own nodes
        assertThat(this.database.executions().findByJobName("refresh"))
                .filteredOn((row) -> row.status() == io.dsched.execution.ExecutionStatus.SCHEDULED)
                .extracting(ExecutionRecord::nodeId)
                .containsExactlyInAnyOrder("node-a", "node-c");
    }

    @Test
    void aNodesShareOfAFireIsOfTheCountTheFireWasWrittenWithWhateverIsDeclaredOrSetSince() {
        JobTarget job = sharded("settle", new Sharding(12, Map.of()));
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        Instant fire = now.minusSeconds(1);
        // written as 4 shards, after the count was set to 4 (since set back to 12, as declared)
        for (int shard = 0; shard < 4; shard++) {
            due("settle", ExecutionRecord.idempotencyKey("settle", fire, shard, 4), fire, now, "node-a");
        }
        ShardClaims claims = new ShardClaims(this.database.store(), targets(job), "node-a", (group) -> 3, (name) -> {});

        // a third of 4, rounded up: not a third of 12, which would take all four
        assertThat(claims.claim(job, now, 10)).hasSize(2);
        assertThat(claims.claim(job, now, 10)).as("its share runs already").isEmpty();
    }

    @Test
    void aNodesShareOfAJobWhoseFiresOverlapIsOfTheShardsDueOrRunningNotOfEachFire() {
        JobTarget job = sharded("sweep", new Sharding(10, Map.of()).overlapping());
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        Instant straggling = now.minusSeconds(2);
        Instant fire = now.minusSeconds(1);
        // a shard of the fire before still runs on the other node; the next fire's ten are due
        this.database
                .executions()
                .save(ExecutionRecord.waiting(
                                "sweep",
                                straggling,
                                1,
                                ExecutionRecord.idempotencyKey("sweep", straggling, 9, 10),
                                ExecutionOrigin.SCHEDULE,
                                "node-b",
                                now,
                                straggling,
                                null,
                                null)
                        .claimedBy("node-b", now));
        for (int shard = 0; shard < 10; shard++) {
            due("sweep", ExecutionRecord.idempotencyKey("sweep", fire, shard, 10), fire, now, "node-b");
        }
        ShardClaims claims = new ShardClaims(this.database.store(), targets(job), "node-a", (group) -> 2, (name) -> {});

        // half of the 11 shards due or running, rounded up: the other node takes the rest
        assertThat(claims.claim(job, now, 20)).hasSize(6);
    }

    private void due(String job, String key, Instant fire, Instant now, String writer) {
        this.database
                .executions()
                .save(ExecutionRecord.waiting(
                        job, fire, 1, key, ExecutionOrigin.SCHEDULE, writer, now, fire, null, null));
    }

    private static JobTarget sharded(String name, Sharding sharding) {
        return new JobTarget(
                name,
                NodeGroups.DEFAULT,
                new RetryPolicy(1, Duration.ZERO, 1, Duration.ZERO, Duration.ZERO, List.of(), List.of()),
                null,
                false,
                null,
                null,
                null,
                sharding,
                (context, payload) -> {});
    }

    private static JobTargets targets(JobTarget job) {
        return new JobTargets() {

            @Override
            public Optional<JobTarget> find(String name) {
                return job.name().equals(name) ? Optional.of(job) : Optional.empty();
            }

            @Override
            public Set<String> names() {
                return Set.of(job.name());
            }
        };
    }
}
