package io.dsched.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.dsched.definition.Schedule;
import io.dsched.execution.ExecutionOrigin;
import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.ExecutionStatus;
import io.dsched.execution.JobTimeoutException;
import io.dsched.execution.Outcome;
import io.dsched.internal.cluster.NodeTable;
import io.dsched.internal.deadletter.DeadLetterFilter;
import io.dsched.internal.deadletter.DeadLetters;
import io.dsched.internal.engine.DschedEngine;
import io.dsched.internal.engine.JobSynchronizer;
import io.dsched.internal.execution.Attempt;
import io.dsched.internal.execution.AttemptRunner;
import io.dsched.internal.execution.Fire;
import io.dsched.internal.execution.FireExecutor;
import io.dsched.internal.execution.JobGuard;
import io.dsched.internal.history.Housekeeping;
import io.dsched.internal.history.Retention;
import io.dsched.internal.store.ClusterTables;
import io.dsched.internal.store.DatabasePlatform;
import io.dsched.internal.store.DeadLetter;
import io.dsched.internal.store.DeadLetterStatus;
import io.dsched.internal.store.ExecutionRepository;
import io.dsched.internal.store.ExecutionStore;
import io.dsched.internal.store.LockTable;
import io.dsched.jobs.JobScheduler;
import io.dsched.jobs.OneOff;
import io.dsched.jobs.RecurringJob;
import io.dsched.jobs.ScheduledJob;
import io.dsched.jobs.UnknownJobException;
import io.dsched.reliability.ReliabilityJobs.Invocation;
import io.dsched.retry.NonRetryableJobException;
import io.dsched.test.ClusterNode;
import io.dsched.test.TestCluster;
import io.dsched.test.TestDatabases;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import net.javacrumbs.shedlock.core.LockConfiguration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.quartz.Scheduler;
import org.quartz.Trigger;
import org.springframework.data.domain.PageRequest;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Nothing lost, nothing twice: retries with backoff, dead letters and their replay, timeouts,
 * crash recovery, misfires and rolling deployments, run against each database by a small
 * subclass; the PostgreSQL and MariaDB ones run as a cluster of another name than the default, on
 * tables of its own, and prove after each test that no table of the default's exists.
 */
abstract class AbstractReliabilityTests {

    private static final Duration NODE_TIMEOUT = Duration.ofSeconds(2);

    /** The node timeout of the test of a slow node that beats every 200 ms. */
    private static final Duration SLOW_NODE_TIMEOUT = Duration.ofSeconds(6);

    /** How far a node's measured clock offset may move between two heartbeats here. */
    private static final Duration OFFSET_REMEASURED = Duration.ofMillis(20);

    @RegisterExtension
    final TestCluster cluster = TestCluster.of(this::kind, this::clusterName);

    protected abstract TestDatabases.Kind kind();

    /**
     * Returns the name of the cluster the suite runs as.
     * @return {@code dsched.cluster.name}
     */
    protected String clusterName() {
        return ClusterTables.DEFAULT_CLUSTER;
    }

    @BeforeEach
    void resetJobs() {
        ReliabilityJobs.reset();
    }

    @AfterEach
    void stopNodesAndCheckTheirTables() {
        this.cluster.nodes().forEach(ClusterNode::close);
        if (!clusterName().equals(ClusterTables.DEFAULT_CLUSTER)) {
            // every statement named the cluster's own tables: the default's were never made
            assertThat(this.cluster.tableNames())
                    .filteredOn((table) -> table.startsWith("dsched_") && !table.startsWith("dsched_qrtz_"))
                    .isEmpty();
            assertThat(this.cluster.tableNames()).contains(this.cluster.tables().table("dsched_execution"));
        }
    }

    @Test
    void aFailingJobIsRetriedWithExponentialBackoffUntilItSucceeds() {
        ClusterNode node = start("node-1");
        start("node-2");
        ReliabilityJobs.FLAKY_FAILURES.set(2);
        Instant fire = Instant.parse("2031-01-01T00:00:00Z");

        node.bean(FireExecutor.class).fire("flaky", fire);
        await().atMost(Duration.ofSeconds(20))
                .until(() -> attempts("flaky").size() == 3
                        && attempts("flaky").get(2).status() == ExecutionStatus.SUCCEEDED);

        List<ExecutionRecord> attempts = attempts("flaky");
        assertThat(attempts)
                .extracting(ExecutionRecord::status)
                .containsExactly(ExecutionStatus.FAILED, ExecutionStatus.FAILED, ExecutionStatus.SUCCEEDED);
        assertThat(attempts)
                .extracting(ExecutionRecord::origin)
                .containsExactly(ExecutionOrigin.SCHEDULE, ExecutionOrigin.RETRY, ExecutionOrigin.RETRY);
        assertThat(attempts).extracting(ExecutionRecord::idempotencyKey).containsOnly("flaky@" + fire.toEpochMilli());
        assertThat(attempts.get(0).errorMessage()).isEqualTo("flaky failure on attempt 1");
        // delay 1s, multiplier 2, no jitter: the second attempt falls due 1s after the first failed,
        // the third 2s after the second
        assertThat(attempts.get(1).dueAt())
                .isEqualTo(attempts.get(0).finishedAt().plusSeconds(1));
        assertThat(attempts.get(2).dueAt())
                .isEqualTo(attempts.get(1).finishedAt().plusSeconds(2));
        // each starts once due, not before, and is taken up promptly: the queue polls every 100ms
        // and wakes for a retry by its due time; the bound leaves room for a busy machine
        for (ExecutionRecord retry : attempts.subList(1, 3)) {
            assertThat(Duration.between(retry.dueAt(), retry.startedAt()))
                    .isBetween(Duration.ZERO, Duration.ofMillis(1500));
        }
        assertThat(ReliabilityJobs.invocations("flaky"))
                .extracting(Invocation::attempt)
                .containsExactly(1, 2, 3);
        assertThat(deadLetters(node).list(DeadLetterFilter.ALL, PageRequest.of(0, 10)))
                .isEmpty();
    }

    @Test
    void aFireClaimedInTheTransactionThatFiresItRunsOnceAndOneWhoseGuardIsHeldWaits() throws Exception {
        ClusterNode node = start("node-1");
        FireExecutor fires = node.bean(FireExecutor.class);
        boolean inTransaction = node.bean(JobGuard.class).locksInTransactions();
        assertThat(inTransaction).isEqualTo(kind() != TestDatabases.Kind.H2);
        // due: a fire claimed with its transaction takes its job's guard too; off the second, on
        // which the jobs' own triggers fire
        Instant fire =
                Instant.now().minusSeconds(60).truncatedTo(ChronoUnit.SECONDS).plusMillis(321);
        // another run of "flaky" holds its guard, on a live node: the locks of a node that does not
        // beat are released as a dead node's by the next sweep of membership
        NodeTable nodes = new NodeTable(this.cluster.observer(), platform(), this.cluster.tables());
        nodes.heartbeat("node-elsewhere");
        ScheduledExecutorService beating = Executors.newSingleThreadScheduledExecutor();
        beating.scheduleWithFixedDelay(
                () -> {
                    try {
                        nodes.heartbeat("node-elsewhere");
                    } catch (RuntimeException ex) {
                        // one beat lost on a busy database; the next one follows, as a node's would
                    }
                },
                100,
                100,
                TimeUnit.MILLISECONDS);
        try {
            fireClaimedWithItsTransaction(node, fires, inTransaction, fire);
        } finally {
            beating.shutdownNow();
            beating.awaitTermination(10, TimeUnit.SECONDS);
        }
    }

    private void fireClaimedWithItsTransaction(
            ClusterNode node, FireExecutor fires, boolean inTransaction, Instant fire) throws Exception {
        LockTable elsewhere =
                new LockTable(this.cluster.observer(), platform(), this.cluster.tables(), "node-elsewhere");
        assertThat(elsewhere.lock(lock("flaky"))).isTrue();

        Fire steady = new Fire("steady", fire);
        Fire flaky = new Fire("flaky", fire);
        Map<Fire, Attempt> claimed;
        try (Connection connection = this.cluster.observer().getConnection()) {
            connection.setAutoCommit(false);
            claimed = fires.claimAhead(connection, List.of(steady, flaky));
            connection.commit();
        }

        if (inTransaction) {
            // committed with the fire: the claim of "steady" and its guard, nothing of "flaky"
            assertThat(attempts("steady")).singleElement().satisfies((attempt) -> {
                assertThat(attempt.status()).isEqualTo(ExecutionStatus.RUNNING);
                assertThat(attempt.nodeId()).isEqualTo("node-1");
            });
            assertThat(elsewhere.lock(lock("steady"))).isFalse();
            assertThat(claimed).containsOnlyKeys(steady);
        } else {
            // H2 takes no lock inside another transaction: each worker claims its own fire
            assertThat(attempts("steady")).isEmpty();
            assertThat(claimed).isEmpty();
        }
        assertThat(attempts("flaky")).isEmpty();

        // the worker runs the attempt claimed with the fire, or claims the fire itself
        assertThat(claimed.containsKey(steady) ? fires.run(claimed.get(steady)) : fires.fire("steady", fire))
                .isEqualTo(Outcome.SUCCEEDED);
        assertThat(fires.fire("flaky", fire)).isEqualTo(Outcome.DEFERRED);
        assertThat(fires.fire("steady", fire)).isEqualTo(Outcome.ALREADY_CLAIMED);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> attempts("steady").get(0).status() == ExecutionStatus.SUCCEEDED);
        assertThat(attempts("steady")).hasSize(1);
        assertThat(ReliabilityJobs.invocations("steady")).hasSize(1);
        // the run released the guard it was claimed with
        assertThat(elsewhere.lock(lock("steady"))).isTrue();
        // "flaky" waits for the other run, and runs once that run lets go of the guard
        assertThat(attempts("flaky")).singleElement().satisfies((attempt) -> assertThat(attempt.status())
                .isIn(ExecutionStatus.SCHEDULED, ExecutionStatus.RUNNING));
        assertThat(ReliabilityJobs.invocations("flaky")).isEmpty();
        elsewhere.unlock(lock("flaky"));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> attempts("flaky").get(0).status() == ExecutionStatus.SUCCEEDED);
        assertThat(attempts("flaky")).hasSize(1);
        assertThat(ReliabilityJobs.invocations("flaky")).hasSize(1);
    }

    @Test
    void aFireClaimedAheadOfItsTimeTakesItsJobsGuardOnlyWhileNoOtherAttemptOfTheJobWaits() throws Exception {
        ClusterNode node = start("node-1");
        FireExecutor fires = node.bean(FireExecutor.class);
        Instant later = Instant.now().plusSeconds(3600).truncatedTo(ChronoUnit.SECONDS);
        Fire ahead = new Fire("steady", later);
        Map<Fire, Attempt> claimed = claimAhead(fires, ahead);
        if (!node.bean(JobGuard.class).locksInTransactions()) {
            // H2 claims no fire of a guarded job in its transaction: its worker claims it
            assertThat(claimed).isEmpty();
            return;
        }
        assertThat(claimed).containsOnlyKeys(ahead);
        assertThat(attempts("steady")).singleElement().satisfies((attempt) -> {
            assertThat(attempt.status()).isEqualTo(ExecutionStatus.RUNNING);
            assertThat(attempt.startedAt()).as("to start at its time").isEqualTo(later);
        });
        LockTable elsewhere =
                new LockTable(this.cluster.observer(), platform(), this.cluster.tables(), "node-elsewhere");
        assertThat(elsewhere.lock(lock("steady")))
                .as("the guard, taken with the claim")
                .isFalse();
        assertThat(fires.run(claimed.get(ahead))).isEqualTo(Outcome.SUCCEEDED);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> attempts("steady").get(0).status() == ExecutionStatus.SUCCEEDED);

        // another attempt of the job waits (here a manual run due in an hour): a fire claimed ahead
        // leaves the guard to it for the lead, and takes it as its worker starts
        executions()
                .save(ExecutionRecord.waiting(
                        "steady",
                        later.plusSeconds(1),
                        1,
                        "manual-steady",
                        ExecutionOrigin.MANUAL,
                        "node-1",
                        Instant.now(),
                        later,
                        null,
                        null));
        Fire next = new Fire("steady", later.plusSeconds(2));
        claimed = claimAhead(fires, next);
        assertThat(claimed).containsOnlyKeys(next);
        assertThat(elsewhere.lock(lock("steady")))
                .as("the guard, free during the lead")
                .isTrue();
        assertThat(fires.run(claimed.get(next)))
                .as("its worker finds the guard held, and waits")
                .isEqualTo(Outcome.DEFERRED);
        elsewhere.unlock(lock("steady"));
        await().atMost(Duration.ofSeconds(10)).until(() -> attempts("steady").stream()
                .filter((attempt) -> attempt.scheduledAt().equals(next.scheduledAt()))
                .allMatch((attempt) -> attempt.status() == ExecutionStatus.SUCCEEDED));
        assertThat(ReliabilityJobs.invocations("steady")).hasSize(2);
    }

    private Map<Fire, Attempt> claimAhead(FireExecutor fires, Fire fire) throws Exception {
        try (Connection connection = this.cluster.observer().getConnection()) {
            connection.setAutoCommit(false);
            Map<Fire, Attempt> claimed = fires.claimAhead(connection, List.of(fire));
            connection.commit();
            return claimed;
        }
    }

    @Test
    void aFireClaimedInTheTransactionThatFiresItIsNotTakenOverWhileItWaitsLongForItsWorker() throws Exception {
        ClusterNode node = start("node-1");
        FireExecutor fires = node.bean(FireExecutor.class);
        AttemptRunner runner = node.bean(AttemptRunner.class);
        // due, as Quartz fires it: an attempt claimed ahead of its time is stale no earlier than then
        Instant at =
                Instant.now().minusSeconds(60).truncatedTo(ChronoUnit.SECONDS).plusMillis(321);
        Fire steady = new Fire("steady", at);
        Fire dropped = new Fire("missed", at);
        // claims of a transaction that did not commit are let go
        Map<Fire, Attempt> rolledBack;
        try (Connection connection = this.cluster.observer().getConnection()) {
            connection.setAutoCommit(false);
            rolledBack = fires.claimAhead(connection, List.of(steady));
            connection.rollback();
        }
        fires.notCommitted(rolledBack.values());
        assertThat(runner.inFlight()).as("claims rolled back").isEmpty();

        Map<Fire, Attempt> claimed;
        try (Connection connection = this.cluster.observer().getConnection()) {
            connection.setAutoCommit(false);
            claimed = fires.claimAhead(connection, List.of(steady, dropped));
            connection.commit();
        }
        if (!node.bean(JobGuard.class).locksInTransactions()) {
            // H2 claims no fire in its transaction: its worker claims it, and runs it at once
            assertThat(claimed).isEmpty();
            return;
        }
        long claim = claimed.get(steady).claim().id();
        assertThat(runner.inFlight())
                .containsExactlyInAnyOrder(claim, claimed.get(dropped).claim().id());
        // Quartz handed "missed" to a worker that never started it (a trigger listener vetoed it)
        fires.handedOver(claimed.get(dropped));
        // Quartz hands a fire to its worker once it has seen its transaction commit, which can take
        // as long as the database does not answer: here longer than the node timeout, over which
        // the membership's sweep takes over the node's running attempts it does not know of
        await().during(NODE_TIMEOUT.plusSeconds(2))
                .atMost(NODE_TIMEOUT.plusSeconds(12))
                .until(
                        () -> attempts("steady").stream()
                                .map(ExecutionRecord::status)
                                .toList(),
                        (statuses) -> statuses.equals(List.of(ExecutionStatus.RUNNING)));

        assertThat(fires.run(claimed.get(steady))).isEqualTo(Outcome.SUCCEEDED);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> attempts("steady").get(0).status() == ExecutionStatus.SUCCEEDED);
        assertThat(attempts("steady")).hasSize(1);
        assertThat(ReliabilityJobs.invocations("steady")).hasSize(1);
        // the fire its worker never started was taken over a node timeout after it was handed over
        await().atMost(Duration.ofSeconds(10)).until(() -> attempts("missed").size() == 2);
        assertThat(attempts("missed").get(0).statusReason()).contains("lost track of it");
        assertThat(attempts("missed").get(1).origin()).isEqualTo(ExecutionOrigin.RECOVERY);
        await().atMost(Duration.ofSeconds(10)).until(() -> runner.inFlight().isEmpty());
    }

    @Test
    void aRunThatSucceededHoldsItsGuardUntilItsOutcomeIsWrittenAndTheNextRunHereWaitsForThatWrite() throws Exception {
        ClusterNode node = start("node-1");
        FireExecutor fires = node.bean(FireExecutor.class);
        LockTable elsewhere =
                new LockTable(this.cluster.observer(), platform(), this.cluster.tables(), "node-elsewhere");
        Instant first = Instant.parse("2031-01-01T00:00:00Z");
        Instant second = first.plusSeconds(1);
        ReliabilityJobs.HELD = new CountDownLatch(1);
        CompletableFuture<Outcome> firstRun =
                CompletableFuture.supplyAsync(() -> fires.fire("held-then-succeed", first));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> ReliabilityJobs.invocations("held-then-succeed").size() == 1);
        long firstId = attempts("held-then-succeed").get(0).id();

        try (Connection blocker = this.cluster.observer().getConnection()) {
            // holds the first attempt's row: its outcome cannot be written until this ends
            blocker.setAutoCommit(false);
            try (PreparedStatement lockRow = blocker.prepareStatement(
                    this.cluster.tables().sql("SELECT id FROM dsched_execution WHERE id = ? FOR UPDATE"))) {
                lockRow.setLong(1, firstId);
                lockRow.executeQuery().close();
            }
            ReliabilityJobs.HELD.countDown();
            assertThat(firstRun.get(10, TimeUnit.SECONDS)).isEqualTo(Outcome.SUCCEEDED);
            // the method returned, its outcome is not written: no other run may start yet
            assertThat(attempts("held-then-succeed").get(0).status()).isEqualTo(ExecutionStatus.RUNNING);
            assertThat(elsewhere.lock(lock("held-then-succeed"))).isFalse();

            CompletableFuture<Outcome> secondRun =
                    CompletableFuture.supplyAsync(() -> fires.fire("held-then-succeed", second));
            await().atMost(Duration.ofSeconds(10))
                    .pollInterval(Duration.ofMillis(10))
                    .until(() -> attempts("held-then-succeed").size() == 2);
            blocker.commit();
            // the next run on this node waited for that write instead of being put back
            assertThat(secondRun.get(10, TimeUnit.SECONDS)).isEqualTo(Outcome.SUCCEEDED);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> attempts("held-then-succeed").stream()
                .allMatch((run) -> run.status() == ExecutionStatus.SUCCEEDED));
        assertThat(attempts("held-then-succeed"))
                .extracting(ExecutionRecord::scheduledAt)
                .containsExactlyInAnyOrder(first, second);
        assertThat(ReliabilityJobs.invocations("held-then-succeed")).hasSize(2);
        // the second run's outcome is written, and its guard released with it
        assertThat(elsewhere.lock(lock("held-then-succeed"))).isTrue();
    }

    private static LockConfiguration lock(String job) {
        return new LockConfiguration(Instant.now(), job, Duration.ofMinutes(1), Duration.ZERO);
    }

    @Test
    void aNonRetryableFailureIsDeadLetteredAtOnceAndAReplayFromTwoNodesAtOnceRunsOnce() throws Exception {
        ClusterNode one = start("node-1");
        ClusterNode two = start("node-2");
        Instant fire = Instant.parse("2031-01-01T00:00:00Z");

        one.bean(FireExecutor.class).fire("poison", fire);

        List<ExecutionRecord> attempts = attempts("poison");
        assertThat(attempts).singleElement().satisfies((attempt) -> {
            assertThat(attempt.status()).isEqualTo(ExecutionStatus.DEAD_LETTERED);
            assertThat(attempt.errorClass()).isEqualTo(NonRetryableJobException.class.getName());
            assertThat(attempt.statusReason()).contains("not retryable");
        });
        DeadLetter letter = deadLetters(one)
                .list(DeadLetterFilter.OPEN.forJob("poison"), PageRequest.of(0, 10))
                .getContent()
                .get(0);
        assertThat(letter.attempts()).isEqualTo(1);
        assertThat(letter.idempotencyKey()).isEqualTo("poison@" + fire.toEpochMilli());
        assertThat(letter.errorMessage()).isEqualTo("order 42 has no customer");
        assertThat(letter.stackTrace()).contains(NonRetryableJobException.class.getName(), "ReliabilityJobs");
        assertThat(letter.executionId()).isEqualTo(attempts.get(0).id());

        CountDownLatch gate = new CountDownLatch(1);
        CompletableFuture<Optional<ExecutionRecord>> fromOne = replayAfter(gate, one, letter.id());
        CompletableFuture<Optional<ExecutionRecord>> fromTwo = replayAfter(gate, two, letter.id());
        gate.countDown();
        assertThat(List.of(fromOne.get(), fromTwo.get()))
                .filteredOn(Optional::isPresent)
                .hasSize(1);

        await().atMost(Duration.ofSeconds(10))
                .until(() -> attempts("poison").size() == 2
                        && attempts("poison").get(1).status() == ExecutionStatus.SUCCEEDED);
        ExecutionRecord replay = attempts("poison").get(1);
        assertThat(replay.origin()).isEqualTo(ExecutionOrigin.REPLAY);
        assertThat(replay.attempt()).isEqualTo(2);
        assertThat(replay.idempotencyKey()).isEqualTo(letter.idempotencyKey());
        assertThat(replay.statusReason()).contains("replay of dead letter " + letter.id() + " by operator-");
        assertThat(ReliabilityJobs.invocations("poison")).hasSize(2);
        assertThat(deadLetters(one).find(letter.id())).hasValueSatisfying((replayed) -> {
            assertThat(replayed.status()).isEqualTo(DeadLetterStatus.REPLAYED);
            assertThat(replayed.actedBy()).startsWith("operator-");
        });
        assertThat(deadLetters(two).replay(letter.id(), "late-operator", "again"))
                .isEmpty();
    }

    @Test
    void aFireWithNoRetryLeftIsDeadLetteredWithItsAttemptsAndFirstFailure() {
        ClusterNode node = start("node-1");
        Instant fire = Instant.parse("2031-01-01T00:00:00Z");

        node.bean(FireExecutor.class).fire("exhausted", fire);
        await().atMost(Duration.ofSeconds(10)).until(() -> !deadLetters(node)
                .list(DeadLetterFilter.OPEN.forJob("exhausted"), PageRequest.of(0, 1))
                .isEmpty());

        assertThat(attempts("exhausted"))
                .extracting(ExecutionRecord::status)
                .containsExactly(ExecutionStatus.FAILED, ExecutionStatus.DEAD_LETTERED);
        DeadLetter letter = deadLetters(node)
                .list(DeadLetterFilter.OPEN, PageRequest.of(0, 10))
                .getContent()
                .get(0);
        assertThat(letter.attempts()).isEqualTo(2);
        assertThat(letter.errorMessage()).isEqualTo("partner down on attempt 2");
        assertThat(letter.firstFailedAt())
                .isEqualTo(attempts("exhausted").get(0).finishedAt());
        assertThat(letter.lastFailedAt()).isEqualTo(attempts("exhausted").get(1).finishedAt());
        assertThat(deadLetters(node).discard(letter.id(), "operator", "partner retired the endpoint"))
                .isTrue();
        assertThat(deadLetters(node).find(letter.id()).orElseThrow().status()).isEqualTo(DeadLetterStatus.DISCARDED);
        assertThat(deadLetters(node).openCount()).isZero();
    }

    @Test
    void aRunLongerThanItsTimeoutIsInterruptedRecordedAsTimedOutAndRetried() {
        ClusterNode node = start("node-1");
        Instant fire = Instant.parse("2031-01-01T00:00:00Z");

        node.bean(FireExecutor.class).fire("sluggish", fire);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> attempts("sluggish").size() == 2
                        && attempts("sluggish").get(1).status() == ExecutionStatus.DEAD_LETTERED);

        List<ExecutionRecord> attempts = attempts("sluggish");
        assertThat(attempts.get(0).status()).isEqualTo(ExecutionStatus.TIMED_OUT);
        assertThat(attempts).extracting(ExecutionRecord::errorClass).containsOnly(JobTimeoutException.class.getName());
        for (ExecutionRecord attempt : attempts) {
            // both instants are database time, the node's clock plus its measured offset; a
            // heartbeat between them may measure the offset again, a few milliseconds apart
            assertThat(Duration.between(attempt.startedAt(), attempt.finishedAt()))
                    .isBetween(Duration.ofMillis(300).minus(OFFSET_REMEASURED), Duration.ofSeconds(3));
        }
    }

    @Test
    void theRunningAttemptOfADeadNodeIsRunAgainOnceElsewhereAndItsLockReleased() {
        start("node-1");
        start("node-2");
        Instant fire = Instant.parse("2031-01-01T00:00:00Z");
        // the dead node's lock first: the nodes may take its attempt over as soon as it is planted
        holdLock("steady", "ghost-node");
        long orphan = plantOrphan("steady", fire, "ghost-node");

        await().atMost(Duration.ofSeconds(20))
                .until(() -> attempts("steady").size() == 2
                        && attempts("steady").get(1).status() == ExecutionStatus.SUCCEEDED);

        List<ExecutionRecord> attempts = attempts("steady");
        assertThat(attempts.get(0).id()).isEqualTo(orphan);
        assertThat(attempts.get(0).status()).isEqualTo(ExecutionStatus.FAILED);
        assertThat(attempts.get(0).errorClass()).isEqualTo(ExecutionStore.NodeLostException.class.getName());
        assertThat(attempts.get(0).statusReason()).contains("ghost-node");
        assertThat(attempts.get(1).origin()).isEqualTo(ExecutionOrigin.RECOVERY);
        assertThat(attempts.get(1).nodeId()).isIn("node-1", "node-2");
        assertThat(ReliabilityJobs.invocations("steady")).singleElement().satisfies((run) -> {
            assertThat(run.scheduledAt()).isEqualTo(fire);
            assertThat(run.attempt()).isEqualTo(2);
        });
    }

    @Test
    void aNodeThatIsOnlySlowIsNotDeclaredDead() {
        start("node-1", Map.of("dsched.recovery.node-timeout", SLOW_NODE_TIMEOUT.toMillis() + "ms"));
        Instant fire = Instant.parse("2031-01-01T00:00:00Z");
        plantOrphan("steady", fire, "slow-node");
        JdbcTemplate sql = new JdbcTemplate(this.cluster.observer());
        String now = platform().dialect().currentTimestampSql();
        sql.update(this.cluster
                .tables()
                .sql("INSERT INTO dsched_node (node_id, started_at, last_seen) VALUES ('slow-node', " + now + ", " + now
                        + ")"));

        // the slow node beats every 200 ms for two node timeouts, the second of them while node-1
        // judges others: its attempt stays its own. The rule's boundary (a silence of exactly the
        // node timeout is alive, a millisecond more is dead) is proven exactly by NodeSightingTests;
        // here the node timeout is 30 beats of the slow node, so that a test thread held up on a
        // loaded machine does not make it look dead
        await().during(SLOW_NODE_TIMEOUT.multipliedBy(2))
                .atMost(SLOW_NODE_TIMEOUT.multipliedBy(3))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> {
                    sql.update(this.cluster
                            .tables()
                            .sql("UPDATE dsched_node SET last_seen = " + now + " WHERE node_id = 'slow-node'"));
                    return attempts("steady").size() == 1
                            && attempts("steady").get(0).status() == ExecutionStatus.RUNNING;
                });
        // then it goes silent for good
        await().atMost(SLOW_NODE_TIMEOUT.multipliedBy(3))
                .until(() -> attempts("steady").size() == 2
                        && attempts("steady").get(1).status() == ExecutionStatus.SUCCEEDED);
        assertThat(attempts("steady").get(0).statusReason()).contains("slow-node died");
    }

    @Test
    void aFireOfAJobThisNodeDoesNotDeclareWaitsForANodeThatDoes() {
        ClusterNode old = start("old-1");
        Instant fire = Instant.parse("2031-01-01T00:00:00Z");

        old.bean(FireExecutor.class).fire("newcomer", fire);
        assertThat(attempts("newcomer")).singleElement().satisfies((attempt) -> assertThat(attempt.status())
                .isEqualTo(ExecutionStatus.SCHEDULED));
        start("new-1", Map.of("test.newcomer.cron", ReliabilityJobs.NEVER));

        await().atMost(Duration.ofSeconds(10))
                .until(() -> attempts("newcomer").size() == 1
                        && attempts("newcomer").get(0).status() == ExecutionStatus.SUCCEEDED);
        assertThat(attempts("newcomer").get(0).nodeId()).isEqualTo("new-1");
        assertThat(ReliabilityJobs.invocations("newcomer")).hasSize(1);
    }

    @Test
    void aFireMissedWhileTheClusterWasDownRunsOnceOrIsSkippedAsItsPolicySays() throws Exception {
        start("node-1").close();
        missFires("missed");
        missFires("skipped");
        ClusterNode node = start("node-2");

        await().atMost(Duration.ofSeconds(10))
                .until(() -> ReliabilityJobs.invocations("missed").size() == 1);
        await().during(Duration.ofSeconds(2))
                .atMost(Duration.ofSeconds(3))
                .until(() -> ReliabilityJobs.invocations("missed").size() == 1
                        && ReliabilityJobs.invocations("skipped").isEmpty());
        Scheduler scheduler = node.bean(DschedEngine.class).scheduler();
        Trigger skipped = scheduler.getTrigger(JobSynchronizer.triggerKey("skipped"));
        assertThat(skipped.getNextFireTime()).isAfter(new java.util.Date());
    }

    @Test
    void aJobChangedFromCronToFixedRateKeepsFiringAndSoDoOthers() {
        // the other job, beat, is declared alike by both versions: a cron of every second
        start("v1", Map.of("test.beat.cron", "* * * * * *")).close();
        // the first whole second after v1 stopped: every fire of beat from then on is v2's
        Instant upgraded = Instant.now().truncatedTo(ChronoUnit.SECONDS).plusSeconds(1);
        start(
                "v2",
                Map.of(
                        "test.shapeshifter.cron",
                        "",
                        "test.shapeshifter.rate",
                        "500ms",
                        "test.beat.cron",
                        "* * * * * *"));

        await().atMost(Duration.ofSeconds(20))
                .until(() -> ReliabilityJobs.invocations("shapeshifter").size() >= 3
                        && firesSince("beat", upgraded).stream()
                                        .filter((at) -> at.getNano() == 0)
                                        .count()
                                >= 2);
        // the changed job fires at its new rate, each fire once
        assertThat(firesSince("shapeshifter", Instant.EPOCH)).doesNotHaveDuplicates();
        // the unchanged job fires on its cron's whole seconds on the new version too, each fire once
        // (a fire missed while no node ran runs once, at the time v2 found it)
        List<Instant> beat = firesSince("beat", upgraded);
        assertThat(beat).doesNotHaveDuplicates();
        assertThat(beat).filteredOn((at) -> at.getNano() == 0).hasSizeGreaterThanOrEqualTo(2);
        assertThat(ReliabilityJobs.invocations("beat"))
                .filteredOn((run) -> !run.scheduledAt().isBefore(upgraded))
                .extracting(Invocation::nodeId)
                .containsOnly("v2");
    }

    /** The scheduled times of a job's first attempts from a time on, in order. */
    private static List<Instant> firesSince(String job, Instant since) {
        return ReliabilityJobs.invocations(job).stream()
                .filter((run) -> run.attempt() == 1 && !run.scheduledAt().isBefore(since))
                .map(Invocation::scheduledAt)
                .sorted()
                .toList();
    }

    @Test
    void aOneOffJobRunsOnceWithItsPayloadAndTheSameKeyTwiceSchedulesOnce() {
        ClusterNode one = start("node-1");
        ClusterNode two = start("node-2");
        ReliabilityJobs.Reminder reminder = new ReliabilityJobs.Reminder("order-42", 2);

        ScheduledJob first = one.bean(JobScheduler.class)
                .submit(OneOff.of("reminder", reminder)
                        .after(Duration.ofMillis(500))
                        .withKey("order-42"));
        ScheduledJob second = two.bean(JobScheduler.class)
                .submit(OneOff.of("reminder", new ReliabilityJobs.Reminder("order-42", 9))
                        .withKey("order-42"));

        assertThat(first.created()).isTrue();
        assertThat(second.created()).isFalse();
        assertThat(second.executionId()).isEqualTo(first.executionId());
        assertThat(second.idempotencyKey()).isEqualTo("reminder:order-42");
        await().atMost(Duration.ofSeconds(10)).until(() -> ReliabilityJobs.REMINDERS.size() == 1);
        await().during(Duration.ofMillis(1500))
                .atMost(Duration.ofSeconds(3))
                .until(() -> ReliabilityJobs.REMINDERS.size() == 1);
        assertThat(ReliabilityJobs.REMINDERS).containsExactly(reminder);
        assertThat(attempts("reminder")).singleElement().satisfies((run) -> {
            assertThat(run.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
            assertThat(run.origin()).isEqualTo(ExecutionOrigin.ONE_OFF);
            assertThat(run.startedAt()).isAfterOrEqualTo(run.dueAt());
            assertThat(run.payload()).contains("order-42");
        });
    }

    @Test
    void aKeyHeldForAWindowDeduplicatesAfterHousekeepingDeletedItsRunAndAKeyWithoutOneDoesNot() {
        ClusterNode node = start("node-1");
        JobScheduler scheduler = node.bean(JobScheduler.class);
        ReliabilityJobs.Reminder held = new ReliabilityJobs.Reminder("order-7", 1);
        ReliabilityJobs.Reminder plain = new ReliabilityJobs.Reminder("order-8", 1);
        ScheduledJob first =
                scheduler.submit(OneOff.of("reminder", held).withKey("order-7").uniqueFor(Duration.ofDays(30)));
        scheduler.submit(OneOff.of("reminder", plain).withKey("order-8"));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> attempts("reminder").size() == 2
                        && attempts("reminder").stream().allMatch((run) -> run.status() == ExecutionStatus.SUCCEEDED));

        // housekeeping with a history kept for no time at all deletes both runs
        Retention none = new Retention(Duration.ZERO, Duration.ofDays(14), Duration.ofDays(90), Duration.ofDays(365));
        new Housekeeping(
                        this.cluster.observer(),
                        platform(),
                        this.cluster.tables(),
                        none,
                        100,
                        java.time.Duration.ZERO,
                        java.time.Clock.systemUTC())
                .purge();
        assertThat(attempts("reminder")).isEmpty();

        ScheduledJob again =
                scheduler.submit(OneOff.of("reminder", held).withKey("order-7").uniqueFor(Duration.ofDays(30)));
        assertThat(again.created()).isFalse();
        assertThat(again.executionId()).isEqualTo(first.executionId());
        // without a window of its own a key deduplicates only while its run is in the history
        assertThat(scheduler
                        .submit(OneOff.of("reminder", plain).withKey("order-8"))
                        .created())
                .isTrue();
        await().atMost(Duration.ofSeconds(10)).until(() -> ReliabilityJobs.REMINDERS.size() == 3);
        await().during(Duration.ofMillis(1500))
                .atMost(Duration.ofSeconds(3))
                .until(() -> ReliabilityJobs.REMINDERS.size() == 3);
        assertThat(ReliabilityJobs.REMINDERS).containsExactlyInAnyOrder(held, plain, plain);
        // a window no database can store the end of is refused before anything is stored
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
                .isThrownBy(() -> OneOff.of("reminder", held).withKey("order-9").uniqueFor(Duration.ofDays(3651)))
                .withMessageContaining("at most 3650 days");
    }

    @ParameterizedTest(name = "skip-locked={0}")
    @ValueSource(booleans = {true, false})
    void aBatchSubmittedFromANodeThatRunsNoJobsRunsEachJobExactlyOnceOnTheOtherNodes(boolean skipLocked) {
        Map<String, Object> properties = Map.of("dsched.queue.skip-locked", skipLocked, "dsched.threads", 4);
        Map<String, Object> submitOnly = new LinkedHashMap<>(properties);
        submitOnly.put("dsched.run-jobs", false);
        ClusterNode client = start("client", submitOnly);
        List<ClusterNode> workers =
                List.of(start("node-1", properties), start("node-2", properties), start("node-3", properties));
        List<OneOff> requests = new ArrayList<>();
        for (int i = 0; i < 600; i++) {
            requests.add(OneOff.of("reminder", new ReliabilityJobs.Reminder("order-" + i, 1)));
        }
        requests.add(
                OneOff.of("reminder", new ReliabilityJobs.Reminder("keyed", 1)).withKey("keyed"));
        requests.add(
                OneOff.of("reminder", new ReliabilityJobs.Reminder("keyed", 2)).withKey("keyed"));

        Instant submitted = Instant.now();
        List<ScheduledJob> scheduled = client.bean(JobScheduler.class).submitAll(requests);

        assertThat(scheduled).hasSize(602);
        // a key of their own for those submitted without one: a UUID of version 7, which leads with
        // the millisecond of its submission (the node's estimate of the database's clock)
        assertThat(scheduled.subList(0, 600)).allSatisfy((job) -> {
            UUID key = UUID.fromString(job.idempotencyKey().substring("reminder:".length()));
            assertThat(key.version()).isEqualTo(7);
            assertThat(key.variant()).isEqualTo(2);
            assertThat(Instant.ofEpochMilli(key.getMostSignificantBits() >>> 16))
                    .isBetween(submitted.minusSeconds(5), submitted.plusSeconds(5));
        });
        assertThat(scheduled.subList(0, 601)).allMatch(ScheduledJob::created);
        assertThat(scheduled.stream().map(ScheduledJob::executionId).distinct()).hasSize(601);
        assertThat(scheduled.get(601).created()).isFalse();
        assertThat(scheduled.get(601).executionId())
                .isEqualTo(scheduled.get(600).executionId());
        await().atMost(Duration.ofSeconds(60)).until(() -> ReliabilityJobs.REMINDERS.size() >= 601);
        await().during(Duration.ofMillis(1000))
                .atMost(Duration.ofSeconds(3))
                .until(() -> ReliabilityJobs.REMINDERS.size() == 601);
        assertThat(ReliabilityJobs.REMINDERS.stream()
                        .map(ReliabilityJobs.Reminder::orderId)
                        .distinct())
                .hasSize(601);
        List<ExecutionRecord> runs = attempts("reminder");
        assertThat(runs).hasSize(601).allSatisfy((run) -> {
            assertThat(run.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
            assertThat(run.attempt()).isEqualTo(1);
            assertThat(run.nodeId()).isNotEqualTo("client");
        });
        assertThat(workers).allSatisfy((node) -> assertThat(
                        node.bean(ExecutionStore.class).claims().claimsWithSkipLocked())
                .isEqualTo(skipLocked && kind() != TestDatabases.Kind.H2));
    }

    @Test
    void anUnknownHandlerOrAnUnwritablePayloadIsRefusedAndStoresNothing() {
        JobScheduler jobs = start("node-1").bean(JobScheduler.class);

        assertThatThrownBy(() -> jobs.submit(OneOff.of("no.such.handler", "x")))
                .isInstanceOf(UnknownJobException.class)
                .hasMessageContaining("No @JobHandler named 'no.such.handler'")
                .hasMessageContaining("reminder");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> jobs.submit(OneOff.of("reminder", new Unwritable())))
                .withMessageContaining("cannot be written as JSON");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> jobs.submit(OneOff.of("reminder", List.of(1, 2, 3))))
                .withMessageContaining("cannot be read as");
        // the node's recurring jobs may have claimed a fire ahead meanwhile: the refused one-offs left nothing
        assertThat(executions().findByJobName("reminder")).isEmpty();
        assertThat(executions().findByJobName("no.such.handler")).isEmpty();
    }

    @Test
    void aJobIsPausedTriggeredAndRescheduledAtRunTimeOnEveryNodeAndTheChangeSurvivesARestart() {
        ClusterNode one = start("node-1");
        ClusterNode two = start("node-2");
        JobScheduler jobs = one.bean(JobScheduler.class);

        jobs.trigger("steady");
        await().atMost(Duration.ofSeconds(10))
                .until(() -> ReliabilityJobs.invocations("steady").size() == 1);
        assertThat(attempts("steady")).singleElement().satisfies((run) -> assertThat(run.origin())
                .isEqualTo(ExecutionOrigin.MANUAL));

        jobs.reschedule("steady", new Schedule.Cron("* * * * * *", null));
        await().atMost(Duration.ofSeconds(10)).until(() -> scheduled("steady") >= 2);
        jobs.pause("steady");
        assertThat(two.bean(JobScheduler.class).isPaused("steady")).isTrue();
        long firedBeforePause = scheduled("steady");
        await().during(Duration.ofSeconds(3))
                .atMost(Duration.ofSeconds(4))
                .until(() -> scheduled("steady") <= firedBeforePause + 1);

        one.close();
        two.close();
        ClusterNode restarted = start("node-3");
        JobScheduler afterRestart = restarted.bean(JobScheduler.class);
        assertThat(afterRestart.isPaused("steady")).isTrue();
        assertThat(afterRestart.scheduleOf("steady")).isEqualTo("cron(* * * * * *, default zone)");
        long firedWhilePaused = scheduled("steady");
        afterRestart.resume("steady");
        await().atMost(Duration.ofSeconds(10)).until(() -> scheduled("steady") >= firedWhilePaused + 2);
        assertThatIllegalArgumentException()
                .isThrownBy(() -> afterRestart.reschedule("steady", new Schedule.Cron("0 61 * * * *", null)))
                .withMessageContaining("Invalid cron expression '0 61 * * * *'");
        assertThatThrownBy(() -> afterRestart.pause("no-such-job")).isInstanceOf(UnknownJobException.class);
    }

    /** A payload whose property cannot be read, so it cannot be written as JSON. */
    static class Unwritable {

        public String getOrderId() {
            throw new IllegalStateException("the order is gone");
        }
    }

    @Test
    void aRecurringJobDefinedAtRunTimeFiresUpdatesSurvivesARestartAndIsDeleted() {
        ClusterNode one = start("node-1");
        start("node-2");
        JobScheduler jobs = one.bean(JobScheduler.class);
        ReliabilityJobs.Reminder first = new ReliabilityJobs.Reminder("all", 1);

        jobs.create(RecurringJob.of("reminders", "reminder", new Schedule.Cron("* * * * * *", null), first));
        // bounds loose in wall time: a loaded machine of two cores has run out of 10 s here; the test
        // is about what fires, not how soon
        await().atMost(Duration.ofSeconds(30)).until(() -> ReliabilityJobs.REMINDERS.contains(first));
        assertThat(attempts("reminders"))
                .allSatisfy((run) -> assertThat(run.origin()).isEqualTo(ExecutionOrigin.SCHEDULE));

        ReliabilityJobs.Reminder second = new ReliabilityJobs.Reminder("all", 2);
        jobs.update("reminders", new Schedule.FixedRate(Duration.ofMillis(700), Duration.ZERO), second);
        await().atMost(Duration.ofSeconds(30)).until(() -> ReliabilityJobs.REMINDERS.contains(second));

        this.cluster.nodes().forEach(ClusterNode::close);
        ClusterNode restarted = start("node-3");
        JobScheduler afterRestart = restarted.bean(JobScheduler.class);
        assertThat(afterRestart.scheduleOf("reminders")).isEqualTo("fixedRate(PT0.7S, initialDelay PT0S)");
        long before = ReliabilityJobs.REMINDERS.size();
        await().atMost(Duration.ofSeconds(20)).until(() -> ReliabilityJobs.REMINDERS.size() >= before + 2);

        assertThatIllegalArgumentException()
                .isThrownBy(() -> afterRestart.create(
                        RecurringJob.of("reminders", "reminder", new Schedule.Cron("* * * * * *", null), first)))
                .withMessageContaining("exists already");
        assertThatThrownBy(() -> afterRestart.create(
                        RecurringJob.of("other", "no.such.handler", new Schedule.Cron("* * * * * *", null), null)))
                .isInstanceOf(UnknownJobException.class);
        assertThatIllegalArgumentException()
                .isThrownBy(() -> afterRestart.create(
                        RecurringJob.of("other", "reminder", new Schedule.Cron("61 * * * * *", null), first)))
                .withMessageContaining("Invalid cron expression");
        assertThat(afterRestart.recurring("other")).isEmpty();
        assertThatIllegalArgumentException().isThrownBy(() -> afterRestart.delete("steady"));

        // a retry of the job and a one-off of another job both wait for an hour
        Instant now = Instant.now();
        ExecutionRecord retry = executions()
                .save(ExecutionRecord.waiting(
                        "reminders",
                        now,
                        2,
                        "reminders@retry",
                        ExecutionOrigin.RETRY,
                        "node-3",
                        now,
                        now.plus(1, ChronoUnit.HOURS),
                        null,
                        "retry 2"));
        ExecutionRecord other = executions()
                .save(ExecutionRecord.waiting(
                        "nobody.runs.this",
                        now,
                        1,
                        "other@1",
                        ExecutionOrigin.ONE_OFF,
                        "node-3",
                        now,
                        now.plus(1, ChronoUnit.HOURS),
                        null,
                        null));

        afterRestart.delete("reminders");
        assertThat(afterRestart.recurring("reminders")).isEmpty();
        ExecutionRecord cancelled = executions().findById(retry.id()).orElseThrow();
        assertThat(cancelled.status()).isEqualTo(ExecutionStatus.CANCELLED);
        assertThat(cancelled.statusReason()).isEqualTo("job deleted");
        assertThat(cancelled.finishedAt()).isNotNull();
        assertThat(executions().findById(other.id()).orElseThrow().status()).isEqualTo(ExecutionStatus.SCHEDULED);
        assertThatThrownBy(() -> afterRestart.pause("reminders")).isInstanceOf(UnknownJobException.class);
        long afterDelete = ReliabilityJobs.REMINDERS.size();
        await().during(Duration.ofSeconds(2))
                .atMost(Duration.ofSeconds(3))
                .until(() -> ReliabilityJobs.REMINDERS.size() <= afterDelete + 1);
    }

    @Test
    void aRuntimeJobDeletedWhileItRunsIsNotRetriedWhenTheRunFails() {
        ReliabilityJobs.HELD = new CountDownLatch(1);
        JobScheduler jobs = start("node-1").bean(JobScheduler.class);
        jobs.create(RecurringJob.of("held", "hold-then-fail", new Schedule.Cron(ReliabilityJobs.NEVER, null), null));
        jobs.trigger("held");
        await().atMost(Duration.ofSeconds(10))
                .until(() -> attempts("held").stream().anyMatch((run) -> run.status() == ExecutionStatus.RUNNING));

        jobs.delete("held");
        ReliabilityJobs.HELD.countDown();
        // the run fails with retries left, but its job is gone: the fire ends, nothing waits
        await().atMost(Duration.ofSeconds(10))
                .until(() -> attempts("held").stream().allMatch((run) -> run.finishedAt() != null));
        assertThat(attempts("held")).singleElement().satisfies((run) -> {
            assertThat(run.status()).isEqualTo(ExecutionStatus.DEAD_LETTERED);
            assertThat(run.errorMessage()).contains("was deleted while it ran");
        });
    }

    private long scheduled(String job) {
        return attempts(job).stream()
                .filter((run) -> run.origin() == ExecutionOrigin.SCHEDULE)
                .count();
    }

    private void missFires(String job) {
        // as if the cluster had been down since an hour before the job's next fire
        long anHourAgo = Instant.now().minus(1, ChronoUnit.HOURS).toEpochMilli();
        int updated = new JdbcTemplate(this.cluster.observer())
                .update("UPDATE DSCHED_QRTZ_TRIGGERS SET NEXT_FIRE_TIME = ? WHERE TRIGGER_NAME = ?", anHourAgo, job);
        assertThat(updated).isEqualTo(1);
    }

    private long plantOrphan(String job, Instant fire, String deadNode) {
        Instant started = Instant.now().minus(1, ChronoUnit.MINUTES);
        return executions()
                .save(ExecutionRecord.claim(job, fire, deadNode, started))
                .id();
    }

    private void holdLock(String job, String deadNode) {
        String now = platform().dialect().lockClockSql();
        String inTenMinutes =
                switch (platform()) {
                    case POSTGRESQL -> now + " + INTERVAL '10 minutes'";
                    case MYSQL -> "DATE_ADD(" + now + ", INTERVAL 10 MINUTE)";
                    case H2 -> "DATEADD(MINUTE, 10, " + now + ")";
                };
        new JdbcTemplate(this.cluster.observer())
                .update(
                        this.cluster
                                .tables()
                                .sql("INSERT INTO dsched_lock (name, lock_until, locked_at, locked_by) VALUES (?, "
                                        + inTenMinutes + ", " + now + ", ?)"),
                        job,
                        deadNode);
    }

    private CompletableFuture<Optional<ExecutionRecord>> replayAfter(CountDownLatch gate, ClusterNode node, long id) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                gate.await();
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
            return deadLetters(node).replay(id, "operator-" + node.id(), "fixed the customer");
        });
    }

    private static DeadLetters deadLetters(ClusterNode node) {
        return node.bean(DeadLetters.class);
    }

    private List<ExecutionRecord> attempts(String job) {
        List<ExecutionRecord> attempts = new ArrayList<>(executions().findByJobName(job));
        attempts.sort(java.util.Comparator.comparingInt(ExecutionRecord::attempt));
        return attempts;
    }

    private DatabasePlatform platform() {
        return this.cluster.platform();
    }

    private ExecutionRepository executions() {
        return this.cluster.executions();
    }

    private ClusterNode start(String id) {
        return start(id, Map.of());
    }

    private ClusterNode start(String id, Map<String, Object> properties) {
        Map<String, Object> all = new LinkedHashMap<>();
        all.put("dsched.queue.poll-interval", "100ms");
        all.put("dsched.recovery.heartbeat-interval", "250ms");
        all.put("dsched.recovery.node-timeout", NODE_TIMEOUT.toMillis() + "ms");
        all.put("dsched.cluster.misfire-threshold", "1s");
        all.putAll(properties);
        ClusterNode node = this.cluster.start(id, ReliabilityJobs.class, all);
        return node;
    }
}
