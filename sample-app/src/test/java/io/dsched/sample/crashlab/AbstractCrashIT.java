package io.dsched.sample.crashlab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dsched.execution.ExecutionOrigin;
import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.ExecutionStatus;
import io.dsched.internal.store.ExecutionStore;
import io.dsched.sample.crashlab.CrashLab.Run;
import io.dsched.sample.order.OrderJobs;
import io.dsched.test.TestDatabase;
import io.dsched.test.TestDatabases;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.awaitility.core.ConditionFactory;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.util.FileSystemUtils;

/**
 * Crash tests with real JVMs: three nodes of the sample application's jar over one database, of which
 * the tests kill one with SIGKILL, or stop all and start them again. One small subclass per database
 * supplies it.
 *
 * <p>The tests of a class share one {@link CrashLab}, one database and its three nodes, for a start of
 * the sample's JVM costs a CPU 10 to 15 seconds: they run in a fixed order, the restart of every node
 * last, and each begins with the three nodes serving, a node an earlier test killed started again under
 * its id once the others have declared it dead and forgotten it. Each test asserts on what it caused
 * alone: the attempts and runs of a fire or one-off job of its own (a run triggered by hand has a key
 * with a random part, a scheduled fire one with its time, an order's timeout one with the new order's
 * id), the ticker's fires after its own restart, and {@code dsched_node} once every node has stopped;
 * so what an earlier test left behind, a job it rescheduled or a node it killed, neither satisfies nor
 * fails the assertions of a later one. The nodes append to {@code target/crashlab/<class>/node-N.log},
 * where each test marks its beginning.
 */
@Timeout(value = AbstractCrashIT.GUARD_SECONDS, unit = TimeUnit.SECONDS)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
abstract class AbstractCrashIT {

    /**
     * How long a test, or the start of nodes before it, may take: a guard against hangs, not a time they
     * must keep. On a loaded CI machine 150 s did not leave the restart test room to start three JVMs
     * again (about 70 s there) and then wait for what it waits for. A class-level {@code @Timeout} does
     * not reach lifecycle methods: {@code @BeforeAll} and {@code @BeforeEach}, which start nodes, have
     * theirs.
     */
    static final long GUARD_SECONDS = 240;

    private static final Logger logger = LoggerFactory.getLogger(AbstractCrashIT.class);

    private CrashLab lab;

    private List<SampleNode> nodes;

    /**
     * The database the nodes share.
     * @return its kind
     */
    protected abstract TestDatabases.Kind kind();

    /**
     * The sample application's profile for that database.
     * @return the profile's name
     */
    protected abstract String profile();

    @BeforeAll
    @Timeout(value = GUARD_SECONDS, unit = TimeUnit.SECONDS)
    void startLab() throws IOException {
        Path logs = Path.of("target", "crashlab", getClass().getSimpleName());
        FileSystemUtils.deleteRecursively(logs);
        TestDatabase database = TestDatabases.create(kind());
        try {
            this.lab = new CrashLab(database, profile(), logs);
        } catch (RuntimeException ex) {
            database.close();
            throw ex;
        }
        this.nodes = this.lab.start(3);
    }

    /**
     * Marks the test's beginning in the nodes' logs, and starts again each node an earlier test killed.
     * @param test the test
     */
    @BeforeEach
    @Timeout(value = GUARD_SECONDS, unit = TimeUnit.SECONDS)
    void serveWithThreeNodes(TestInfo test) {
        String name = test.getTestMethod().orElseThrow().getName();
        logger.info("[{}] {} begins", kind(), name);
        this.nodes.forEach((node) -> node.mark("test " + name + " begins"));
        List<SampleNode> down = this.lab.notAlive();
        if (!down.isEmpty()) {
            // as in a fresh cluster, no row under the node's id when it starts: the others declare a
            // killed node dead after the node timeout, take over its attempts and then forget it
            // (ClusterMembership.rescueDeadNodes)
            List<String> ids = down.stream().map(SampleNode::nodeId).toList();
            waitUpTo(Duration.ofSeconds(30), "the cluster to forget " + ids)
                    .until(this.lab::registeredNodes, (registered) -> ids.stream()
                            .noneMatch(registered::contains));
            logger.info("[{}] starting {} again for {}", kind(), ids, name);
            this.lab.restart(down);
        }
    }

    @AfterAll
    void closeLab() {
        if (this.lab != null) {
            this.lab.close();
        }
    }

    @Test
    @Order(1)
    void aScheduledFireWhoseNodeIsKilledMidRunCompletesOnceOnAnotherNode() {
        List<SampleNode> nodes = this.nodes;
        // a cron that fires once, a few seconds from now, in the nodes' zone: a fire of the schedule
        ZonedDateTime fire =
                ZonedDateTime.now(ZoneId.of(SampleNode.ZONE)).plusSeconds(6).truncatedTo(ChronoUnit.SECONDS);
        String cron = fire.getSecond() + " " + fire.getMinute() + " " + fire.getHour() + " " + fire.getDayOfMonth()
                + " " + fire.getMonthValue() + " *";
        nodes.get(0).reschedule(CrashLabJobs.LONG_JOB, cron);
        String key = CrashLabJobs.LONG_JOB + "@" + fire.toInstant().toEpochMilli();
        ExecutionRecord running = waitUpTo(Duration.ofSeconds(30), "the scheduled fire of the long job to start")
                .until(
                        () -> this.lab.attempts(key),
                        (all) -> all.size() == 1 && all.get(0).status() == ExecutionStatus.RUNNING)
                .get(0);
        assertThat(running.origin()).isEqualTo(ExecutionOrigin.SCHEDULE);
        assertThat(running.scheduledAt()).isEqualTo(fire.toInstant());
        SampleNode victim = this.lab.node(running.nodeId());

        Instant killedAt = victim.kill();

        List<ExecutionRecord> attempts = waitUpTo(Duration.ofSeconds(60), "a recovery of the long job to succeed")
                .until(
                        () -> this.lab.attempts(key),
                        (all) -> all.size() == 2 && all.get(1).status() == ExecutionStatus.SUCCEEDED);
        ExecutionRecord lost = attempts.get(0);
        ExecutionRecord recovery = attempts.get(1);
        assertThat(lost.status()).isEqualTo(ExecutionStatus.FAILED);
        assertThat(lost.origin()).isEqualTo(ExecutionOrigin.SCHEDULE);
        assertThat(lost.nodeId()).isEqualTo(victim.nodeId());
        assertThat(lost.errorClass()).isEqualTo(ExecutionStore.NodeLostException.class.getName());
        assertThat(recovery.origin()).isEqualTo(ExecutionOrigin.RECOVERY);
        assertThat(recovery.attempt()).isEqualTo(2);
        assertThat(recovery.nodeId()).isNotEqualTo(victim.nodeId()).startsWith("node-");
        assertThat(recovery.startedAt()).isAfter(killedAt);
        assertThat(this.lab.runs(key)).containsExactly(new Run(2, recovery.id(), recovery.nodeId()));
        assertThat(this.lab.attempts(key)).hasSize(2);

        Duration detected = Duration.between(killedAt, lost.finishedAt());
        Duration failover = Duration.between(killedAt, recovery.startedAt());
        logger.info(
                "[{}] failover of {}: killed {} at {}; declared dead after {} ms; recovery attempt started on {} after {} ms",
                kind(),
                CrashLabJobs.LONG_JOB,
                victim,
                killedAt,
                detected.toMillis(),
                recovery.nodeId(),
                failover.toMillis());
        // node timeout 3s, heartbeat 500ms, queue poll 200ms
        assertThat(failover).isLessThan(Duration.ofSeconds(10));
    }

    @Test
    @Order(2)
    void aPendingRetryRunsOnAnotherNodeWhenTheNodeThatFailedIsKilled() {
        List<SampleNode> nodes = this.nodes;
        SampleNode.Triggered run = nodes.get(1).trigger(CrashLabJobs.RETRY_JOB);
        List<ExecutionRecord> pending = waitUpTo(Duration.ofSeconds(20), "the first attempt to fail")
                .until(
                        () -> this.lab.attempts(run.idempotencyKey()),
                        (all) -> all.size() == 2
                                && all.get(0).status() == ExecutionStatus.FAILED
                                && all.get(1).status() == ExecutionStatus.RETRY_SCHEDULED);
        ExecutionRecord failed = pending.get(0);
        ExecutionRecord retry = pending.get(1);
        SampleNode victim = this.lab.node(failed.nodeId());

        Instant killedAt = victim.kill();

        assertThat(killedAt).as("the retry is still pending when its node dies").isBefore(retry.dueAt());
        ExecutionRecord succeeded = waitUpTo(Duration.ofSeconds(45), "the retry to succeed")
                .until(
                        () -> this.lab.execution(retry.id()),
                        (attempt) -> attempt.status() == ExecutionStatus.SUCCEEDED);
        assertThat(succeeded.origin()).isEqualTo(ExecutionOrigin.RETRY);
        assertThat(succeeded.attempt()).isEqualTo(2);
        assertThat(succeeded.nodeId()).isNotEqualTo(victim.nodeId()).startsWith("node-");
        assertThat(succeeded.startedAt()).isAfterOrEqualTo(retry.dueAt());
        assertThat(this.lab.attempts(run.idempotencyKey())).hasSize(2);
        assertThat(this.lab.runs(run.idempotencyKey())).containsExactly(new Run(2, succeeded.id(), succeeded.nodeId()));
        logger.info(
                "[{}] retry of {} was due {} ms after {} was killed; it started on {} {} ms after its due time",
                kind(),
                CrashLabJobs.RETRY_JOB,
                Duration.between(killedAt, retry.dueAt()).toMillis(),
                victim,
                succeeded.nodeId(),
                Duration.between(retry.dueAt(), succeeded.startedAt()).toMillis());
    }

    @Test
    @Order(3) // last: it stops every node
    void oneOffJobsRetriesAndScheduleChangesSurviveARestartOfEveryNode() {
        List<SampleNode> nodes = this.nodes;
        // an order awaiting payment, whose one-off timeout falls due 20s later
        long order = nodes.get(0).placeOrder("12.34");
        String timeoutKey = OrderJobs.ORDER_TIMEOUT + ":order-" + order;
        ExecutionRecord timeout = this.lab.attempts(timeoutKey).get(0);
        assertThat(timeout.status()).isEqualTo(ExecutionStatus.SCHEDULED);
        assertThat(timeout.origin()).isEqualTo(ExecutionOrigin.ONE_OFF);
        // a fire whose first attempt failed, with its retry 20s later
        SampleNode.Triggered fire = nodes.get(1).trigger(CrashLabJobs.LATE_RETRY_JOB);
        ExecutionRecord retry = waitUpTo(Duration.ofSeconds(20), "the first attempt to fail")
                .until(
                        () -> this.lab.attempts(fire.idempotencyKey()),
                        (all) -> all.size() == 2
                                && all.get(0).status() == ExecutionStatus.FAILED
                                && all.get(1).status() == ExecutionStatus.RETRY_SCHEDULED)
                .get(1);
        // a schedule changed at run time
        String override = "cron(*/7 * * * * *, default zone)";
        assertThat(nodes.get(2).reschedule(CrashLabJobs.TICKER, "*/7 * * * * *"))
                .isEqualTo(override);

        this.lab.stop(nodes);

        Instant stoppedAt = Instant.now();
        assertThat(this.lab.registeredNodes())
                .as("nodes still registered after a graceful stop")
                .isEmpty();
        assertThat(this.lab.execution(timeout.id()).status()).isEqualTo(ExecutionStatus.SCHEDULED);
        assertThat(this.lab.execution(retry.id()).status()).isEqualTo(ExecutionStatus.RETRY_SCHEDULED);
        assertThat(this.lab.orderStatus(order)).isEqualTo("PENDING");
        assertThat(stoppedAt).as("stopped before the one-off job fell due").isBefore(timeout.dueAt());

        this.lab.restart(nodes);

        Instant restartedAt = Instant.now();
        logger.info(
                "[{}] cluster down at {}, serving again at {} ({} ms); one-off due at {}, retry due at {}",
                kind(),
                stoppedAt,
                restartedAt,
                Duration.between(stoppedAt, restartedAt).toMillis(),
                timeout.dueAt(),
                retry.dueAt());
        for (SampleNode node : nodes) {
            assertThat(node.job(CrashLabJobs.TICKER))
                    .isEqualTo(new SampleNode.Job(CrashLabJobs.TICKER, false, override));
        }
        ExecutionRecord timedOut = waitUpTo(Duration.ofSeconds(40), "the order's timeout to run")
                .until(
                        () -> this.lab.execution(timeout.id()),
                        (attempt) -> attempt.status() == ExecutionStatus.SUCCEEDED);
        assertThat(timedOut.startedAt()).isAfter(stoppedAt).isAfterOrEqualTo(timeout.dueAt());
        assertThat(this.lab.orderStatus(order)).isEqualTo("CANCELLED");
        assertThat(nodes.get(1).orderStatus(order)).isEqualTo("CANCELLED");
        assertThat(this.lab.attempts(timeoutKey)).hasSize(1);

        ExecutionRecord retried = waitUpTo(Duration.ofSeconds(45), "the retry to run")
                .until(
                        () -> this.lab.execution(retry.id()),
                        (attempt) -> attempt.status() == ExecutionStatus.SUCCEEDED);
        assertThat(retried.startedAt()).isAfter(stoppedAt).isAfterOrEqualTo(retry.dueAt());
        assertThat(this.lab.runs(fire.idempotencyKey())).containsExactly(new Run(2, retried.id(), retried.nodeId()));

        ExecutionRecord tick = waitUpTo(Duration.ofSeconds(20), "the ticker to fire on its new schedule")
                .until(
                        () -> this.lab.executionsOf(CrashLabJobs.TICKER).stream()
                                .filter((attempt) -> attempt.scheduledAt().isAfter(restartedAt))
                                .filter((attempt) -> attempt.status() == ExecutionStatus.SUCCEEDED)
                                .findFirst(),
                        Optional::isPresent)
                .orElseThrow();
        assertThat(tick.scheduledAt().atOffset(ZoneOffset.UTC).getSecond() % 7).isZero();
    }

    private static ConditionFactory waitUpTo(Duration timeout, String what) {
        return await(what).atMost(timeout).pollInterval(Duration.ofMillis(200));
    }
}
