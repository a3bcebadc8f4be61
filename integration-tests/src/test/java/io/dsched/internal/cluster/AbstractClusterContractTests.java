package io.dsched.internal.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.ExecutionStatus;
import io.dsched.execution.Outcome;
import io.dsched.internal.engine.DschedEngine;
import io.dsched.internal.engine.JobSynchronizer;
import io.dsched.internal.execution.FireExecutor;
import io.dsched.internal.store.ExecutionRepository;
import io.dsched.quartz.SpringCronTrigger;
import io.dsched.test.ClusterNode;
import io.dsched.test.TestCluster;
import io.dsched.test.TestDatabases;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.quartz.Scheduler;
import org.quartz.TriggerKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster contract: what dsched promises about fires across nodes, run against each
 * database by a small subclass.
 */
abstract class AbstractClusterContractTests {

    private static final Logger logger = LoggerFactory.getLogger(AbstractClusterContractTests.class);

    @RegisterExtension
    final TestCluster cluster = TestCluster.of(this::kind);

    /**
     * Returns the database this suite runs on.
     * @return the kind of database
     */
    protected abstract TestDatabases.Kind kind();

    @BeforeEach
    void resetJobs() {
        TestJobs.reset();
    }

    @Test
    void everyFireRunsExactlyOnceOnOneOfThreeNodesAndContinuesWhenANodeStops() {
        Map<String, Object> tickEverySecond = Map.of("test.tick.cron", "* * * * * *");
        start("node-1", tickEverySecond);
        start("node-2", tickEverySecond);
        start("node-3", tickEverySecond);
        Instant from = Instant.now().truncatedTo(ChronoUnit.SECONDS).plusSeconds(2);
        Instant to = from.plusSeconds(22);
        ExecutionRepository executions = executions();

        await().atMost(Duration.ofSeconds(30))
                .until(() -> executions.findByJobNameBetween("tick", from, to).size() >= 10);
        ClusterNode busiest = busiest(executions.findByJobNameBetween("tick", from, to));
        busiest.close();
        await().atMost(Duration.ofSeconds(45))
                .until(() -> executions.findByJobNameBetween("tick", from, to).stream()
                                .filter((run) -> run.status() != ExecutionStatus.RUNNING)
                                .count()
                        >= 22);

        List<ExecutionRecord> window = executions.findByJobNameBetween("tick", from, to);
        List<Instant> expected = new ArrayList<>();
        for (Instant second = from; second.isBefore(to); second = second.plusSeconds(1)) {
            expected.add(second);
        }
        assertThat(window).extracting(ExecutionRecord::scheduledAt).containsExactlyElementsOf(expected);
        assertThat(window).extracting(ExecutionRecord::status).containsOnly(ExecutionStatus.SUCCEEDED);
        assertThat(window).extracting(ExecutionRecord::attempt).containsOnly(1);
        Map<Instant, List<String>> invocations = TestJobs.invocations("tick");
        for (Instant second : expected) {
            assertThat(invocations.get(second))
                    .as("invocations of the fire at %s", second)
                    .hasSize(1);
        }
        Map<String, Long> perNode =
                window.stream().collect(Collectors.groupingBy(ExecutionRecord::nodeId, Collectors.counting()));
        logger.info("{}: {} fires in [{}, {}) by node: {}", kind(), window.size(), from, to, perNode);
        assertThat(perNode).hasSizeGreaterThan(1);
        assertThat(perNode).containsKey(busiest.id());
        assertThat(TestJobs.EARLY).as("runs started before their time").isEmpty();
    }

    @Test
    void aFireIsClaimedAheadOfItsTimeAndItsJobStartsAtItsTimeNotBefore() {
        start("node-1", Map.of("test.tick.cron", "* * * * * *"));
        ExecutionRepository executions = executions();
        if (kind() == TestDatabases.Kind.H2) {
            // H2 has no SKIP LOCKED: each fire is recorded and claimed at its time
            await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(4)).until(() -> claimedAhead(executions)
                    .isEmpty());
            return;
        }
        // a fire still to come, recorded and claimed already: it waits in the node's pool
        ExecutionRecord ahead = await().atMost(Duration.ofSeconds(10))
                .until(() -> claimedAhead(executions), (claims) -> !claims.isEmpty())
                .get(0);
        assertThat(ahead.startedAt()).as("to start at its time").isEqualTo(ahead.scheduledAt());
        await().atMost(Duration.ofSeconds(10))
                .until(() -> TestJobs.invocations("tick").containsKey(ahead.scheduledAt()));
        assertThat(TestJobs.invocations("tick").get(ahead.scheduledAt())).containsExactly("node-1");
        assertThat(TestJobs.EARLY).as("runs started before their time").isEmpty();
    }

    private static List<ExecutionRecord> claimedAhead(ExecutionRepository executions) {
        Instant now = Instant.now();
        return executions.findByJobNameBetween("tick", now.plusMillis(50), now.plusSeconds(10)).stream()
                .filter((run) -> run.status() == ExecutionStatus.RUNNING)
                .toList();
    }

    @Test
    void aJobSlowerThanItsIntervalNeverOverlapsItselfAcrossNodes() {
        Map<String, Object> slowEverySecond = Map.of("test.slow.cron", "* * * * * *");
        start("node-1", slowEverySecond);
        start("node-2", slowEverySecond);
        ExecutionRepository executions = executions();

        await().atMost(Duration.ofSeconds(40))
                .until(() -> executions.countByJobNameAndStatus("slow", ExecutionStatus.SUCCEEDED) >= 4);

        List<ExecutionRecord> runs = executions.findByJobName("slow").stream()
                .filter((run) -> run.status() == ExecutionStatus.SUCCEEDED)
                .sorted(Comparator.comparing(ExecutionRecord::startedAt))
                .toList();
        assertThat(runs).extracting(ExecutionRecord::scheduledAt).isSorted();
        // the runs' own spans, by the one clock both nodes share (each node stamps its records by
        // its own estimate of the database's clock)
        List<TestJobs.Span> spans = TestJobs.spans("slow");
        assertThat(spans)
                .extracting(TestJobs.Span::scheduledAt)
                .containsAll(runs.stream().map(ExecutionRecord::scheduledAt).toList());
        for (int i = 1; i < spans.size(); i++) {
            TestJobs.Span previous = spans.get(i - 1);
            TestJobs.Span next = spans.get(i);
            assertThat(next.began())
                    .as("run of %s began before the run of %s ended", next.scheduledAt(), previous.scheduledAt())
                    .isAfterOrEqualTo(previous.ended());
        }
        Map<Instant, List<String>> invocations = TestJobs.invocations("slow");
        assertThat(invocations.keySet())
                .containsAll(runs.stream().map(ExecutionRecord::scheduledAt).toList());
        assertThat(invocations.values()).allSatisfy((nodes) -> assertThat(nodes).hasSize(1));
    }

    @Test
    void fixedRateFiresAreOneIntervalApartAndFixedDelayRunsStartADelayAfterThePreviousEnded() {
        ClusterNode node = this.cluster.start("node-1", IntervalJobs.class, Map.of());
        this.cluster.start("node-2", IntervalJobs.class, Map.of());
        ExecutionRepository executions = executions();

        await().atMost(Duration.ofSeconds(30))
                .until(() -> succeeded(executions, "rate").size() >= 5
                        && succeeded(executions, "delay").size() >= 5);

        List<ExecutionRecord> rate = succeeded(executions, "rate");
        for (int i = 1; i < rate.size(); i++) {
            assertThat(Duration.between(
                            rate.get(i - 1).scheduledAt(), rate.get(i).scheduledAt()))
                    .isEqualTo(Duration.ofSeconds(1));
        }
        List<ExecutionRecord> delay = succeeded(executions, "delay");
        // measured by the one clock both nodes share: each node stamps its records by its own
        // estimate of the database's clock, and two estimates differ by tens of milliseconds on a
        // loaded machine, more than the delay's margin when consecutive runs are on two nodes
        List<TestJobs.Span> spans = TestJobs.spans("delay");
        assertThat(spans)
                .extracting(TestJobs.Span::scheduledAt)
                .containsAll(delay.stream().map(ExecutionRecord::scheduledAt).toList());
        for (int i = 1; i < spans.size(); i++) {
            assertThat(Duration.between(spans.get(i - 1).ended(), spans.get(i).began()))
                    .isGreaterThanOrEqualTo(Duration.ofMillis(700));
        }
        assertThat(TestJobs.invocations("delay").values())
                .allSatisfy((nodes) -> assertThat(nodes).hasSize(1));
        assertThat(TestJobs.invocations("rate").values())
                .allSatisfy((nodes) -> assertThat(nodes).hasSize(1));
    }

    private static List<ExecutionRecord> succeeded(ExecutionRepository executions, String job) {
        return executions.findByJobName(job).stream()
                .filter((run) -> run.status() == ExecutionStatus.SUCCEEDED)
                .sorted(Comparator.comparing(ExecutionRecord::scheduledAt))
                .toList();
    }

    @Test
    void theSameFireDeliveredTwiceRunsOnce() throws Exception {
        Map<String, Object> neverDue = Map.of("test.once.cron", "0 0 0 1 1 *");
        ClusterNode one = start("node-1", neverDue);
        ClusterNode two = start("node-2", neverDue);
        Instant scheduledAt = Instant.parse("2030-01-01T00:00:00Z");
        CountDownLatch gate = new CountDownLatch(1);
        Function<ClusterNode, CompletableFuture<Outcome>> deliver = (node) -> CompletableFuture.supplyAsync(() -> {
            awaitGate(gate);
            return node.bean(FireExecutor.class).fire("once", scheduledAt);
        });
        CompletableFuture<Outcome> onOne = deliver.apply(one);
        CompletableFuture<Outcome> onTwo = deliver.apply(two);
        gate.countDown();
        Outcome late = one.bean(FireExecutor.class).fire("once", scheduledAt);

        assertThat(List.of(onOne.get(), onTwo.get(), late))
                .containsOnlyOnce(Outcome.SUCCEEDED)
                .filteredOn((outcome) -> outcome != Outcome.SUCCEEDED)
                .containsOnly(Outcome.ALREADY_CLAIMED);
        assertThat(TestJobs.invocations("once").get(scheduledAt)).hasSize(1);
        // a success is written by the node's outcome writer, just after the attempt returns
        await().atMost(Duration.ofSeconds(10)).until(() -> executions().findByJobName("once").stream()
                .allMatch((run) -> run.status() != ExecutionStatus.RUNNING));
        assertThat(executions().findByJobName("once")).singleElement().satisfies((run) -> {
            assertThat(run.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
            assertThat(run.idempotencyKey()).isEqualTo("once@" + scheduledAt.toEpochMilli());
        });
    }

    @Test
    void aNodeOfAnOlderDeploymentDoesNotFlipAChangedScheduleBack() throws Exception {
        String v1 = "0 0 1 * * *";
        String v2 = "0 30 2 * * *";
        try (ClusterNode oldNode = start("old-1", Map.of("test.evolving.cron", v1))) {
            assertThat(storedCron(oldNode)).isEqualTo(v1);
        }
        ClusterNode newNode = start("new-1", Map.of("test.evolving.cron", v2));
        assertThat(storedCron(newNode)).isEqualTo(v2);

        ClusterNode restartedOldNode = start("old-1", Map.of("test.evolving.cron", v1));
        assertThat(storedCron(restartedOldNode)).isEqualTo(v2);
        assertThat(storedCron(newNode)).isEqualTo(v2);
        restartedOldNode.close();

        ClusterNode rollback =
                start("old-2", Map.of("test.evolving.cron", v1, "dsched.jobs.reapply-superseded", "true"));
        assertThat(storedCron(rollback)).isEqualTo(v1);
    }

    private static String storedCron(ClusterNode node) throws Exception {
        Scheduler scheduler = node.bean(DschedEngine.class).scheduler();
        return ((SpringCronTrigger) scheduler.getTrigger(TriggerKey.triggerKey("evolving", JobSynchronizer.GROUP)))
                .getExpression();
    }

    private ClusterNode busiest(List<ExecutionRecord> executions) {
        String nodeId = executions.stream()
                .collect(Collectors.groupingBy(ExecutionRecord::nodeId, Collectors.counting()))
                .entrySet()
                .stream()
                .max(Map.Entry.comparingByValue())
                .orElseThrow()
                .getKey();
        return this.cluster.nodes().stream()
                .filter((node) -> node.id().equals(nodeId))
                .findFirst()
                .orElseThrow();
    }

    /** The execution history as read by the test on a connection pool of its own. */
    private ExecutionRepository executions() {
        return this.cluster.executions();
    }

    private ClusterNode start(String id, Map<String, Object> properties) {
        ClusterNode node = this.cluster.start(id, TestJobs.class, properties);
        return node;
    }

    private static void awaitGate(CountDownLatch gate) {
        try {
            gate.await();
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }
}
