package io.dsched.shards;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

import io.dsched.definition.Schedule;
import io.dsched.execution.ExecutionOrigin;
import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.ExecutionStatus;
import io.dsched.internal.deadletter.DeadLetterFilter;
import io.dsched.internal.deadletter.DeadLetters;
import io.dsched.internal.engine.DschedEngine;
import io.dsched.internal.execution.Sharding;
import io.dsched.internal.jobs.JobShards;
import io.dsched.internal.store.DeadLetter;
import io.dsched.internal.store.ExecutionStore;
import io.dsched.jobs.JobScheduler;
import io.dsched.jobs.RecurringJob;
import io.dsched.test.ClusterNode;
import io.dsched.test.TestCluster;
import io.dsched.test.TestDatabases;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.quartz.SchedulerException;
import org.springframework.data.domain.PageRequest;

/**
 * Sharded jobs on three nodes: each fire fans out into one attempt per shard, each run once under a
 * key of its own and spread over the nodes; a failing shard is retried and dead-lettered alone, and
 * replayed; a fire slower than its period holds the next fire's shards until each of its own has
 * ended. Run against each database by a small subclass.
 */
abstract class AbstractShardTests {

    @RegisterExtension
    final TestCluster cluster = TestCluster.of(this::kind);

    /**
     * Returns the database this suite runs on.
     * @return the kind of database
     */
    protected abstract TestDatabases.Kind kind();

    @BeforeEach
    void reset() {
        ShardJobs.reset();
    }

    @Test
    void eachFireOfTwelveShardsRunsEveryShardOnceSpreadOverTheNodes() {
        // a node of another group takes fires too, and splits them as a node of the job's group would
        ClusterNode outsider = start("outsider", "test.settle.cron", "*/2 * * * * *", "other");
        await().atMost(Duration.ofSeconds(20))
                .until(() -> this.cluster.executions().findByJobName("settle").size() >= 12);
        assertThat(this.cluster.executions().findByJobName("settle")).allSatisfy((row) -> {
            assertThat(row.status()).isEqualTo(ExecutionStatus.SCHEDULED);
            assertThat(row.idempotencyKey()).matches("settle@\\d+#\\d+/12");
        });
        List<ClusterNode> nodes = List.of(
                start("shards-1", "test.settle.cron", "*/2 * * * * *"),
                start("shards-2", "test.settle.cron", "*/2 * * * * *"),
                start("shards-3", "test.settle.cron", "*/2 * * * * *"));
        Instant started = Instant.now();

        // ten fires of the nodes' cluster, 20 s of them, each with all its shards run
        await().atMost(Duration.ofSeconds(60))
                .until(() -> completeFires("settle", started, 12).size() >= 10);
        List<Instant> fires = completeFires("settle", started, 12).subList(0, 10);
        int spread = 0;
        for (Instant fire : fires) {
            List<ShardJobs.Run> runs = runsOf("settle", fire);
            assertThat(runs)
                    .extracting(ShardJobs.Run::shard)
                    .containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11);
            assertThat(runs).allSatisfy((run) -> {
                assertThat(run.shards()).isEqualTo(12);
                assertThat(run.attempt()).isEqualTo(1);
                assertThat(run.key()).isEqualTo(ExecutionRecord.idempotencyKey("settle", fire, run.shard(), 12));
                assertThat(run.param())
                        .isEqualTo(Map.of(0, "Beijing", 1, "Shanghai").get(run.shard()));
            });
            // the table agrees: one attempt of each shard, succeeded (written a moment after the
            // run by the node's writer), under the shard's key
            for (ShardJobs.Run run : runs) {
                await().atMost(Duration.ofSeconds(10))
                        .until(() -> this.cluster.executions().findByIdempotencyKey(run.key()).stream()
                                .allMatch((row) -> row.status() == ExecutionStatus.SUCCEEDED));
                assertThat(this.cluster.executions().findByIdempotencyKey(run.key()))
                        .singleElement()
                        .satisfies((row) -> {
                            assertThat(row.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
                            assertThat(row.scheduledAt()).isEqualTo(fire);
                            assertThat(row.nodeId()).isEqualTo(run.node());
                        });
            }
            Map<String, Long> perNode =
                    runs.stream().collect(Collectors.groupingBy(ShardJobs.Run::node, Collectors.counting()));
            if (perNode.size() == nodes.size() && perNode.values().stream().allMatch((count) -> count >= 2)) {
                spread++;
            }
        }
        // the first fire may come before a node sees the others alive; most are shared out
        System.out.printf(
                "[dsched-test] %s: %d of 10 fires had every node run at least 2 of their 12 shards%n", kind(), spread);
        assertThat(spread)
                .as("fires whose every node ran at least 2 of the 12 shards")
                .isGreaterThanOrEqualTo(6);
        // the gauges of the fires as wholes, read from the database: each node tells how many shards
        // of the latest ended fire it ran, and the three add up to the fire's twelve
        await().atMost(Duration.ofSeconds(10))
                .until(() -> nodes.stream()
                                .mapToDouble((node) -> gauge(node, "dsched.shard.fire.shards.on.node", "settle"))
                                .sum()
                        == 12);
        for (ClusterNode node : nodes) {
            assertThat(gauge(node, "dsched.shards.per.fire", "settle")).isEqualTo(12);
            // each shard runs 800 ms, all twelve at once on three nodes of ten threads
            assertThat(gauge(node, "dsched.shard.fire.completion", "settle")).isBetween(0.8, 30.0);
            assertThat(gauge(node, "dsched.shard.fires.partial", "settle")).isZero();
        }
        // every fire was split, whichever node took it, and none ran on the outsider or before its time
        assertThat(ShardJobs.runs("settle")).allSatisfy((run) -> {
            assertThat(run.shards()).isEqualTo(12);
            assertThat(run.node()).isNotEqualTo(outsider.id());
            assertThat(run.startedAt()).isAfterOrEqualTo(run.fire().minusMillis(100));
        });
    }

    @Test
    void aFailingShardIsRetriedAndDeadLetteredAloneAndItsReplayCompletesTheFire() {
        ClusterNode first = start("flaky-1", "test.flaky.cron", "*/3 * * * * *");
        start("flaky-2", "test.flaky.cron", "*/3 * * * * *");
        start("flaky-3", "test.flaky.cron", "*/3 * * * * *");
        Instant started = Instant.now();

        // a fire whose shard 3 was dead-lettered after its three attempts
        await().atMost(Duration.ofSeconds(30))
                .until(() -> firstDeadLetter(first, started).isPresent());
        DeadLetter letter = firstDeadLetter(first, started).orElseThrow();
        Instant fire = letter.scheduledAt();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> attempts(fire, 2).size() == 3
                        && attempts(fire, 2).get(2).status() == ExecutionStatus.SUCCEEDED);
        assertThat(letter.idempotencyKey()).isEqualTo(ExecutionRecord.idempotencyKey("flaky", fire, 3, 4));
        assertThat(letter.attempts()).isEqualTo(3);
        // only the failing shards ran again: shards 0 and 1 once each
        assertThat(attempts(fire, 0))
                .singleElement()
                .extracting(ExecutionRecord::status)
                .isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(attempts(fire, 1))
                .singleElement()
                .extracting(ExecutionRecord::status)
                .isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(attempts(fire, 2))
                .extracting(ExecutionRecord::status)
                .containsExactly(ExecutionStatus.FAILED, ExecutionStatus.FAILED, ExecutionStatus.SUCCEEDED);
        assertThat(attempts(fire, 3))
                .extracting(ExecutionRecord::status)
                .containsExactly(ExecutionStatus.FAILED, ExecutionStatus.FAILED, ExecutionStatus.DEAD_LETTERED);
        assertThat(ShardJobs.runs("flaky").stream().filter((run) -> run.fire().equals(fire)))
                .extracting(ShardJobs.Run::shard)
                .containsExactlyInAnyOrder(0, 1, 2, 2, 2, 3, 3, 3);

        // the fire stays partial, as every node's gauges say: one shard dead-lettered in each such fire
        // (read together: shard 3 of each new fire is dead-lettered in turn until the fix below)
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            double partial = gauge(first, "dsched.shard.fires.partial", "flaky");
            return partial >= 1 && gauge(first, "dsched.shards.dead.lettered", "flaky") == partial;
        });

        // replayed once its cause is fixed: shard 3 runs again, alone, and the fire is complete
        ShardJobs.failShardThree = false;
        assertThat(deadLetters(first).replay(letter.id(), "operator", "fixed")).isPresent();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> attempts(fire, 3).stream().anyMatch((row) -> row.status() == ExecutionStatus.SUCCEEDED));
        assertThat(ShardJobs.runs("flaky").stream().filter((run) -> run.fire().equals(fire)))
                .extracting(ShardJobs.Run::shard)
                .containsExactlyInAnyOrder(0, 1, 2, 2, 2, 3, 3, 3, 3);
        // with the other fires' letters replayed too (a shard whose last try had begun before the
        // fix may still be dead-lettered), no fire is partial any more
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            deadLetters(first)
                    .list(DeadLetterFilter.OPEN.forJob("flaky"), PageRequest.of(0, 50))
                    .getContent()
                    .forEach((open) -> deadLetters(first).replay(open.id(), "operator", "fixed"));
            return gauge(first, "dsched.shard.fires.partial", "flaky") == 0
                    && gauge(first, "dsched.shards.dead.lettered", "flaky") == 0;
        });
    }

    @Test
    void aFireSlowerThanItsPeriodHoldsTheNextFiresShardsUntilEachOfItsOwnHasEnded() {
        List<ClusterNode> nodes = List.of(
                start("slow-1", "test.slow.cron", "* * * * * *"),
                start("slow-2", "test.slow.cron", "* * * * * *"),
                start("slow-3", "test.slow.cron", "* * * * * *"));

        // fires every second, each of three shards of 1.5 s: four fires run one after another
        await().atMost(Duration.ofSeconds(40))
                .until(() -> completeFires("slow", Instant.MIN, 3).size() >= 4);
        Map<Instant, List<ShardJobs.Run>> byFire =
                new TreeMap<>(ShardJobs.runs("slow").stream().collect(Collectors.groupingBy(ShardJobs.Run::fire)));
        List<Instant> complete = completeFires("slow", Instant.MIN, 3);
        Instant previousEnd = null;
        for (Instant fire : complete) {
            List<ShardJobs.Run> runs = byFire.get(fire);
            Instant firstStart = runs.stream()
                    .map(ShardJobs.Run::startedAt)
                    .min(Comparator.naturalOrder())
                    .orElseThrow();
            if (previousEnd != null) {
                assertThat(firstStart)
                        .as("the first start of the fire at %s", fire)
                        .isAfterOrEqualTo(previousEnd);
            }
            previousEnd = runs.stream()
                    .map(ShardJobs.Run::endedAt)
                    .max(Comparator.naturalOrder())
                    .orElseThrow();
        }
        // the shards of a fire ran at once, beside each other, not one after another
        List<ShardJobs.Run> last = byFire.get(complete.get(complete.size() - 1));
        Instant latestStart = last.stream()
                .map(ShardJobs.Run::startedAt)
                .max(Comparator.naturalOrder())
                .orElseThrow();
        Instant earliestEnd = last.stream()
                .map(ShardJobs.Run::endedAt)
                .min(Comparator.naturalOrder())
                .orElseThrow();
        assertThat(latestStart).isBefore(earliestEnd);
        // none started before its time
        assertThat(ShardJobs.runs("slow")).allSatisfy((run) -> assertThat(run.startedAt())
                .isAfterOrEqualTo(run.fire().minusMillis(100)));
        // at most one fire of the job is held at a time: those that came meanwhile were skipped
        assertThat(this.cluster.executions().findByJobName("slow").stream()
                        .filter((row) -> row.status() == ExecutionStatus.SCHEDULED && row.dueAt() == null)
                        .map(ExecutionRecord::scheduledAt)
                        .distinct())
                .hasSizeLessThanOrEqualTo(1);
        // and each skip counted by the node whose worker found the fire skipped
        await().atMost(Duration.ofSeconds(5))
                .until(() -> nodes.stream()
                                .mapToDouble((node) -> node.bean(MeterRegistry.class)
                                        .counter("dsched.skipped", "job", "slow", "reason", "guard_held")
                                        .count())
                                .sum()
                        > 0);
        // and the next fire is held in the table while one runs, due at no time
        await().atMost(Duration.ofSeconds(5)).until(() -> this.cluster.executions().findByJobName("slow").stream()
                .anyMatch((row) -> row.status() == ExecutionStatus.SCHEDULED && row.dueAt() == null));
    }

    @Test
    void theFiresOfAJobThatLetsThemOverlapRunBesideEachOtherEachShardOnce() {
        List<ClusterNode> nodes = List.of(
                start("overlap-1", "test.overlapping.cron", "* * * * * *"),
                start("overlap-2", "test.overlapping.cron", "* * * * * *"));

        // fires every second, each of two shards of 1.5 s: a fire starts before the one before ends
        await().atMost(Duration.ofSeconds(30)).until(() -> overlappingFires() >= 2);
        // each fire ran each shard once, none held or skipped
        ShardJobs.runs("overlapping").stream()
                .collect(Collectors.groupingBy(ShardJobs.Run::fire))
                .forEach((fire, runs) -> assertThat(runs)
                        .as("the fire at %s", fire)
                        .extracting(ShardJobs.Run::shard)
                        .doesNotHaveDuplicates());
        assertThat(completeFires("overlapping", Instant.MIN, 2).size()).isGreaterThanOrEqualTo(3);
        assertThat(this.cluster.executions().findByJobName("overlapping"))
                .noneMatch((row) -> row.status() == ExecutionStatus.SCHEDULED && row.dueAt() == null);
        assertThat(nodes.stream()
                        .mapToDouble((node) -> node.bean(MeterRegistry.class)
                                .counter("dsched.skipped", "job", "overlapping", "reason", "guard_held")
                                .count())
                        .sum())
                .isZero();
    }

    /** How many complete fires of {@code overlapping} began before the complete fire before them ended. */
    private static long overlappingFires() {
        Map<Instant, List<ShardJobs.Run>> byFire = new TreeMap<>(
                ShardJobs.runs("overlapping").stream().collect(Collectors.groupingBy(ShardJobs.Run::fire)));
        Instant previousEnd = null;
        long overlapping = 0;
        for (Instant fire : completeFires("overlapping", Instant.MIN, 2)) {
            List<ShardJobs.Run> runs = byFire.get(fire);
            Instant firstStart = runs.stream()
                    .map(ShardJobs.Run::startedAt)
                    .min(Comparator.naturalOrder())
                    .orElseThrow();
            if (previousEnd != null && firstStart.isBefore(previousEnd)) {
                overlapping++;
            }
            previousEnd = runs.stream()
                    .map(ShardJobs.Run::endedAt)
                    .max(Comparator.naturalOrder())
                    .orElseThrow();
        }
        return overlapping;
    }

    @Test
    void theShardsADeadNodeWasRunningRunAgainElsewhereEachOnceAndNoOtherShard() {
        ClusterNode doomed = start("doomed", "test.lost.cron", "*/2 * * * * *", "default", "5s");
        // alone, it takes every shard of the first fire: 0 and 1 end, 2 and 3 hold
        await().atMost(Duration.ofSeconds(20))
                .until(() ->
                        ShardJobs.HOLDING.get() == 2 && ShardJobs.runs("lost").size() == 2);
        Instant fire = ShardJobs.runs("lost").get(0).fire();
        start("survivor-1", "test.lost.cron", "*/2 * * * * *", "default", "5s");
        start("survivor-2", "test.lost.cron", "*/2 * * * * *", "default", "5s");
        doomed.cutOff();

        // taken over after the node timeout, the two shards run once more, on the survivors
        await().atMost(Duration.ofSeconds(40)).until(() -> runsOf("lost", fire).size() == 4);
        assertThat(runsOf("lost", fire)).extracting(ShardJobs.Run::shard).containsExactlyInAnyOrder(0, 1, 2, 3);
        for (int shard = 0; shard < 2; shard++) {
            assertThat(attempts("lost", fire, shard)).singleElement().satisfies((row) -> {
                assertThat(row.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
                assertThat(row.nodeId()).isEqualTo("doomed");
            });
        }
        for (int shard = 2; shard < 4; shard++) {
            int index = shard;
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> attempts("lost", fire, index).size() == 2
                            && attempts("lost", fire, index).get(1).status() == ExecutionStatus.SUCCEEDED);
            List<ExecutionRecord> attempts = attempts("lost", fire, shard);
            assertThat(attempts.get(0).status()).isEqualTo(ExecutionStatus.FAILED);
            assertThat(attempts.get(0).nodeId()).isEqualTo("doomed");
            assertThat(attempts.get(1).origin()).isEqualTo(ExecutionOrigin.RECOVERY);
            assertThat(attempts.get(1).nodeId()).isIn("survivor-1", "survivor-2");
        }
        // the next fires go on, on the survivors
        await().atMost(Duration.ofSeconds(20))
                .until(() -> completeFires("lost", fire, 4).size() >= 1);
        doomed.close();
    }

    @Test
    void theShardsSetAtRunTimeSplitTheNextFiresWhileAFireWrittenAlreadyKeepsItsOwn() {
        ClusterNode first = start("reshard-1", "test.reshard.cron", "* * * * * *");
        start("reshard-2", "test.reshard.cron", "* * * * * *");
        // a fire of three shards under way, the next written held behind it
        // (the fire read as its shard runs: it may have ended by a second read)
        Instant inFlight = await().atMost(Duration.ofSeconds(20))
                .until(
                        () -> this.cluster.executions().findByJobName("reshard").stream()
                                .filter((row) -> row.status() == ExecutionStatus.RUNNING)
                                .map(ExecutionRecord::scheduledAt)
                                .findFirst(),
                        Optional::isPresent)
                .orElseThrow();

        // as the endpoint sets them (its test has the roles, the checks and the audit)
        first.bean(ExecutionStore.class).shardSettings().set("reshard", 5, Map.of(4, "e"), "admin", Instant.now());
        Instant changed = Instant.now();
        assertThat(gauge(first, "dsched.shards.per.fire", "reshard")).isEqualTo(5);

        // the fire under way ends as the three shards it was written with, with their parameters
        await().atMost(Duration.ofSeconds(20))
                .until(() -> completeFires("reshard", Instant.MIN, 3).contains(inFlight));
        assertThat(runsOf("reshard", inFlight)).allSatisfy((run) -> {
            assertThat(run.shards()).isEqualTo(3);
            assertThat(run.param()).isEqualTo((run.shard() == 0) ? "a" : null);
        });
        // a fire written since is split into five, with the parameters set
        await().atMost(Duration.ofSeconds(30))
                .until(() -> !completeFires("reshard", changed, 5).isEmpty());
        Instant five = completeFires("reshard", changed, 5).get(0);
        assertThat(runsOf("reshard", five)).extracting(ShardJobs.Run::shard).containsExactlyInAnyOrder(0, 1, 2, 3, 4);
        assertThat(runsOf("reshard", five)).allSatisfy((run) -> {
            assertThat(run.key()).isEqualTo(ExecutionRecord.idempotencyKey("reshard", five, run.shard(), 5));
            assertThat(run.param()).isEqualTo((run.shard() == 4) ? "e" : null);
        });

        // taken back, the fires written after are split as declared again
        first.bean(ExecutionStore.class).shardSettings().reset("reshard");
        assertThat(gauge(first, "dsched.shards.per.fire", "reshard")).isEqualTo(3);
        Instant reset = Instant.now().plusSeconds(2);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> !completeFires("reshard", reset, 3).isEmpty());
        assertThat(ShardJobs.runs("reshard"))
                .filteredOn((run) -> run.fire().isAfter(reset))
                .allSatisfy((run) -> assertThat(run.shards()).isEqualTo(3));
        // no fire was ever split two ways, and every shard of every fire ran once
        Map<Instant, List<ShardJobs.Run>> byFire =
                ShardJobs.runs("reshard").stream().collect(Collectors.groupingBy(ShardJobs.Run::fire));
        byFire.forEach((fire, runs) -> {
            assertThat(runs)
                    .extracting(ShardJobs.Run::shards)
                    .as("the fire at %s", fire)
                    .containsOnly(runs.get(0).shards());
            assertThat(runs)
                    .extracting(ShardJobs.Run::shard)
                    .as("the fire at %s", fire)
                    .doesNotHaveDuplicates();
        });
    }

    @Test
    void aRecurringJobCreatedAtRunTimeWithShardsFansOutEachFireAndKeepsItsShardsThroughItsChanges()
            throws SchedulerException {
        ClusterNode first = start("ledger-1", "test.none", "-");
        ClusterNode second = start("ledger-2", "test.none", "-");
        // the nodes' meters bound before the job exists: its gauges come with it
        MeterRegistry meters = second.bean(MeterRegistry.class);
        assertThat(meters.find("dsched.shards.per.fire").tag("job", "ledger-eu").gauge())
                .isNull();
        JobScheduler scheduler = first.bean(JobScheduler.class);
        Schedule everySecond = new Schedule.FixedRate(Duration.ofSeconds(1), Duration.ZERO);
        RecurringJob ledger = RecurringJob.of("ledger-eu", "ledger", everySecond, new ShardJobs.Ledger("EUR"));
        assertThatIllegalArgumentException()
                .isThrownBy(() -> scheduler.create(ledger.withShards(Sharding.MAX + 1)))
                .withMessageContaining("shards must be 1 to 1000");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> scheduler.create(ledger.withShards(2, Map.of(2, "c"))))
                .withMessageContaining("shards are 0 to 1");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> scheduler.create(ledger.withShards(0, Map.of(0, "a"))))
                .withMessageContaining("no shards");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> scheduler.create(ledger.withShards(2, Map.of(0, "a".repeat(Sharding.MAX_PARAM + 1)))))
                .withMessageContaining("at most 1000 characters");
        // first whole: its nodes have claimed its attempts as a job without shards
        scheduler.create(ledger);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> completeFires("ledger-eu", Instant.MIN, 1).size() >= 2);
        assertThat(ShardJobs.runs("ledger-eu")).allSatisfy((run) -> {
            assertThat(run.shards()).isEqualTo(1);
            assertThat(run.key()).doesNotContain("#");
        });
        JobShards shards = second.bean(JobShards.class);
        assertThat(shards.of("ledger-eu")).isEmpty();
        scheduler.delete("ledger-eu");

        // created again with shards: each fire fans out into its four, each once, with its
        // parameter and the job's, once the other node has read the job again (within 5 s)
        scheduler.create(ledger.withShards(4, Map.of(1, "b")));
        await().atMost(Duration.ofSeconds(15))
                .until(() -> shards.of("ledger-eu").isPresent());
        Instant sharded = Instant.now().plusSeconds(1);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> completeFires("ledger-eu", sharded, 4).size() >= 3);
        for (Instant fire : completeFires("ledger-eu", sharded, 4)) {
            assertThat(runsOf("ledger-eu", fire)).hasSize(4).allSatisfy((run) -> {
                assertThat(run.shards()).isEqualTo(4);
                assertThat(run.key()).isEqualTo(ExecutionRecord.idempotencyKey("ledger-eu", fire, run.shard(), 4));
                assertThat(run.param()).isEqualTo((run.shard() == 1) ? "b" : null);
                assertThat(ShardJobs.CURRENCIES).containsEntry(run.key(), "EUR");
            });
        }
        assertThat(ShardJobs.runs("ledger-eu"))
                .filteredOn((run) -> run.fire().isAfter(sharded))
                .allSatisfy((run) -> assertThat(run.shards()).isEqualTo(4))
                .extracting(ShardJobs.Run::node)
                .as("the shards spread over both nodes")
                .contains(first.id(), second.id());
        assertThat(shards.of("ledger-eu")).hasValue(new Sharding(4, Map.of(1, "b")));
        assertThat(shards.counts()).containsEntry("ledger-eu", 4);
        assertThat(gauge(second, "dsched.shards.per.fire", "ledger-eu")).isEqualTo(4);

        // a node that does not declare the job's handler splits the fires it takes all the same
        ClusterNode bareNode = start(BareNode.class, "ledger-bare", "test.none", "-", "default", "30s", "200ms");
        first.bean(DschedEngine.class).scheduler().standby();
        second.bean(DschedEngine.class).scheduler().standby();
        Instant bare = Instant.now().plusSeconds(1);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> completeFires("ledger-eu", bare, 4).size() >= 2);
        assertThat(ShardJobs.runs("ledger-eu"))
                .filteredOn((run) -> run.fire().isAfter(bare))
                .isNotEmpty()
                .allSatisfy((run) -> assertThat(run.shards()).isEqualTo(4));
        first.bean(DschedEngine.class).scheduler().start();
        second.bean(DschedEngine.class).scheduler().start();
        bareNode.close();

        // its parameters changed, it stays sharded with its parameters, once the nodes have read it
        // again (within 5 s of the change on the other node)
        scheduler.update("ledger-eu", null, new ShardJobs.Ledger("CHF"));
        Instant updated = Instant.now().plusSeconds(7);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> !completeFires("ledger-eu", updated, 4).isEmpty());
        assertThat(runsOf("ledger-eu", completeFires("ledger-eu", updated, 4).get(0)))
                .hasSize(4)
                .allSatisfy((run) -> {
                    assertThat(run.param()).isEqualTo((run.shard() == 1) ? "b" : null);
                    assertThat(ShardJobs.CURRENCIES).containsEntry(run.key(), "CHF");
                });

        // the shards set at run time split its next fires
        // as the endpoint sets them (its test sets a runtime job's through it)
        first.bean(ExecutionStore.class).shardSettings().set("ledger-eu", 2, Map.of(), "admin", Instant.now());
        Instant changed = Instant.now().plusSeconds(1);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> !completeFires("ledger-eu", changed, 2).isEmpty());
        Instant two = completeFires("ledger-eu", changed, 2).get(0);
        assertThat(runsOf("ledger-eu", two)).hasSize(2).allSatisfy((run) -> {
            assertThat(run.shards()).isEqualTo(2);
            assertThat(run.param()).isNull();
            assertThat(ShardJobs.CURRENCIES).containsEntry(run.key(), "CHF");
        });
        assertThat(gauge(first, "dsched.shards.per.fire", "ledger-eu")).isEqualTo(2);

        // deleted, the shards set for it go with it: created again, it is split as it says
        scheduler.delete("ledger-eu");
        assertThat(first.bean(ExecutionStore.class).shardSettings().find("ledger-eu"))
                .isEmpty();
        scheduler.create(ledger.withShards(3));
        await().atMost(Duration.ofSeconds(15))
                .until(() -> shards.of("ledger-eu").map(Sharding::count).orElse(0) == 3);
        Instant again = Instant.now().plusSeconds(1);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> !completeFires("ledger-eu", again, 3).isEmpty());
        assertThat(ShardJobs.runs("ledger-eu"))
                .filteredOn((run) -> run.fire().isAfter(again))
                .allSatisfy((run) -> assertThat(run.shards()).isEqualTo(3));
        scheduler.delete("ledger-eu");
        // and its gauges go, at their next read once the node has read the job's deletion
        await().atMost(Duration.ofSeconds(15)).until(() -> {
            Gauge perFire = meters.find("dsched.shards.per.fire")
                    .tag("job", "ledger-eu")
                    .gauge();
            if (perFire == null) {
                return true;
            }
            // a read refreshes the gauges
            perFire.value();
            return false;
        });
    }

    @AfterEach
    void release() {
        ShardJobs.held.countDown();
    }

    private ClusterNode start(String id, String property, String cron) {
        return start(id, property, cron, "default");
    }

    private ClusterNode start(String id, String property, String cron, String groups) {
        // a node timeout long enough that no node of a loaded machine is taken for dead
        return start(id, property, cron, groups, "30s");
    }

    private ClusterNode start(String id, String property, String cron, String groups, String nodeTimeout) {
        return start(id, property, cron, groups, nodeTimeout, "200ms");
    }

    /** Starts a node of a job, on the cron given by the job's property, that polls at the interval given. */
    final ClusterNode startPolling(String id, String property, String cron, String pollInterval) {
        return start(id, property, cron, "default", "30s", pollInterval);
    }

    private ClusterNode start(
            String id, String property, String cron, String groups, String nodeTimeout, String pollInterval) {
        return start(ShardJobs.class, id, property, cron, groups, nodeTimeout, pollInterval);
    }

    private ClusterNode start(
            Class<?> application,
            String id,
            String property,
            String cron,
            String groups,
            String nodeTimeout,
            String pollInterval) {
        Map<String, Object> properties = new HashMap<>();
        properties.put("dsched.node.groups", groups);
        properties.put("dsched.recovery.node-timeout", nodeTimeout);
        properties.put("dsched.shutdown.timeout", "1s");
        properties.put(property, cron);
        properties.put("dsched.threads", "10");
        properties.put("dsched.queue.poll-interval", pollInterval);
        properties.put("dsched.metrics.refresh", "0s");
        return this.cluster.start(id, application, properties);
    }

    /** The fires after a time each of whose shards has run, earliest first. */
    static List<Instant> completeFires(String job, Instant after, int shards) {
        Map<Instant, Set<Integer>> byFire = new HashMap<>();
        for (ShardJobs.Run run : ShardJobs.runs(job)) {
            if (run.fire().isAfter(after)) {
                byFire.computeIfAbsent(run.fire(), (fire) -> new java.util.HashSet<>())
                        .add(run.shard());
            }
        }
        return byFire.entrySet().stream()
                .filter((entry) -> entry.getValue().size() == shards)
                .map(Map.Entry::getKey)
                .sorted()
                .toList();
    }

    static List<ShardJobs.Run> runsOf(String job, Instant fire) {
        return ShardJobs.runs(job).stream()
                .filter((run) -> run.fire().equals(fire))
                .toList();
    }

    private List<ExecutionRecord> attempts(Instant fire, int shard) {
        return attempts("flaky", fire, shard);
    }

    private List<ExecutionRecord> attempts(String job, Instant fire, int shard) {
        return this.cluster
                .executions()
                .findByIdempotencyKey(ExecutionRecord.idempotencyKey(job, fire, shard, 4))
                .stream()
                .sorted(Comparator.comparingInt(ExecutionRecord::attempt))
                .toList();
    }

    private static Optional<DeadLetter> firstDeadLetter(ClusterNode node, Instant after) {
        return deadLetters(node)
                .list(DeadLetterFilter.OPEN.forJob("flaky"), PageRequest.of(0, 50))
                .getContent()
                .stream()
                .filter((letter) -> letter.scheduledAt().isAfter(after))
                .min(Comparator.comparing(DeadLetter::scheduledAt));
    }

    /** A gauge of a node, read anew from the database (the nodes' metrics refresh is 0 s). */
    private static double gauge(ClusterNode node, String name, String job) {
        return node.bean(MeterRegistry.class).get(name).tag("job", job).gauge().value();
    }

    private static DeadLetters deadLetters(ClusterNode node) {
        return node.bean(DeadLetters.class);
    }
}
