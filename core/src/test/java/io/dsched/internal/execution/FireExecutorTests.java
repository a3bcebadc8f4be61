package io.dsched.internal.execution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.dsched.execution.ExecutionListener;
import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.ExecutionStatus;
import io.dsched.execution.Outcome;
import io.dsched.internal.store.CuttingDataSource;
import io.dsched.internal.store.ExecutionStore;
import io.dsched.internal.store.InMemoryStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A fire claimed in the transaction that fired it counts as running on its node from its claim
 * until its worker starts it, or until it was handed over to a worker longer ago than asked about.
 * A fire that reaches its worker once the node has stopped running fires: claimed in the
 * transaction that fired it, with its job's guard, it is put back to wait, unrun, for any node, and
 * the guard is let go; not claimed, it is queued, also while the database cuts its connections for
 * a moment. On an in-memory H2 database, with the claim written as the fire's transaction writes it
 * on PostgreSQL and MariaDB.
 */
class FireExecutorTests {

    private final InMemoryStore database = new InMemoryStore();

    private final Clock clock = Clock.systemUTC();

    private final InMemoryLocks locks = new InMemoryLocks();

    private final JobGuard guard =
            new JobGuard(this.locks, null, Duration.ofMinutes(10), Duration.ZERO, this.clock, "dsched");

    private final AtomicInteger runs = new AtomicInteger();

    private final AtomicInteger wakeUps = new AtomicInteger();

    private final JobTarget job =
            Fixtures.job("settle", Fixtures.retries(3), true, null, (context, payload) -> this.runs.incrementAndGet());

    private final StopRequests stops = new StopRequests((ids) -> Map.of(), Duration.ofHours(1), Duration.ofSeconds(1));

    private final AttemptRunner runner =
            TestPipeline.runner(new OneJob(), this.database.store(), this.guard, this.clock, this.stops);

    private final FireExecutor executor = executorOver(this.database.store());

    @AfterEach
    void close() {
        this.runner.close();
        this.stops.close();
        this.database.store().close();
    }

    @Test
    void aFireClaimedWithItsGuardThatReachesItsWorkerOnceTheNodeStopsWaitsUnrunAndLetsTheGuardGo() {
        Instant scheduledAt = this.clock.instant().truncatedTo(ChronoUnit.SECONDS);
        ExecutionRecord claim = claim(scheduledAt);
        SimpleLock guardTaken = takeGuard();

        this.executor.leave("settle", scheduledAt, new Attempt(claim, this.job, guardTaken));

        ExecutionRecord left = this.database.executions().findById(claim.id()).orElseThrow();
        assertThat(left.status()).isEqualTo(ExecutionStatus.SCHEDULED);
        assertThat(left.attempt()).as("it never ran: no failure counted").isEqualTo(1);
        assertThat(left.dueAt()).isBeforeOrEqualTo(this.clock.instant());
        assertThat(left.statusReason()).contains("node-1 stopped before it ran the fire");
        assertThat(this.runs).hasValue(0);
        assertThat(this.locks.isHeld("settle"))
                .as("the guard taken with the claim")
                .isFalse();
        assertThat(this.wakeUps).hasValue(1);
    }

    @Test
    void anAttemptClaimedAheadIsInFlightFromItsClaimUntilItsWorkerStartsItOrItsHandOverIsOld() {
        Instant scheduledAt = this.clock.instant().truncatedTo(ChronoUnit.SECONDS);
        Attempt waiting = claimedAhead(scheduledAt);
        Attempt run = claimedAhead(scheduledAt.plusSeconds(1));
        Attempt rolledBack = claimedAhead(scheduledAt.plusSeconds(2));
        Instant beforeHandOver = this.clock.instant().minusMillis(1);
        assertThat(this.runner.inFlight(this.clock.instant().plus(Duration.ofDays(1))))
                .as("held until their workers start them, however long they wait for their time")
                .containsExactlyInAnyOrder(
                        waiting.claim().id(),
                        run.claim().id(),
                        rolledBack.claim().id());

        // their workers start them; the rolled-back one never reaches a worker
        this.executor.handedOver(waiting);
        this.executor.handedOver(run);
        this.executor.notCommitted(List.of(rolledBack));

        assertThat(this.runner.inFlight(beforeHandOver))
                .as("handed over to their workers after the instant asked about")
                .containsExactlyInAnyOrder(waiting.claim().id(), run.claim().id());
        assertThat(this.runner.inFlight(this.clock.instant().plusSeconds(1)))
                .as("handed over before the instant asked about, and not started")
                .isEmpty();
        assertThat(this.runner.inFlight(beforeHandOver))
                .as("let go once asked about an instant after their hand-over")
                .isEmpty();

        assertThat(this.executor.run(run)).isEqualTo(Outcome.SUCCEEDED);
        // in flight until its success is written, in the background
        Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .until(() -> this.runner.inFlight().isEmpty());
    }

    @Test
    void aFireWhoseWorkersAreBusyWaitsForAFreeOneAndWhileItWaitsTheJobsFurtherFiresAreSkipped() {
        Instant scheduledAt = this.clock.instant().truncatedTo(ChronoUnit.SECONDS);
        ExecutionRecord claim = claim(scheduledAt);
        this.runner.hold(claim.id());
        SimpleLock guardTaken = takeGuard();

        // claimed in the fire's transaction: put back to wait, its guard and its hold let go
        assertThat(this.executor.waitForWorker("settle", scheduledAt, new Attempt(claim, this.job, guardTaken)))
                .isEqualTo(Outcome.DEFERRED);
        ExecutionRecord waiting =
                this.database.executions().findById(claim.id()).orElseThrow();
        assertThat(waiting.status()).isEqualTo(ExecutionStatus.SCHEDULED);
        assertThat(waiting.attempt()).as("it never ran: no failure counted").isEqualTo(1);
        assertThat(waiting.statusReason())
                .isEqualTo("waiting for a free worker of group 'default': the shared workers of node node-1 were"
                        + " busy");
        assertThat(this.locks.isHeld("settle")).isFalse();
        assertThat(this.runner.inFlight()).isEmpty();
        assertThat(this.wakeUps).hasValue(1);

        // the next fire, not claimed ahead, finds the first still waiting: recorded skipped
        Instant next = scheduledAt.plusSeconds(1);
        assertThat(this.executor.waitForWorker("settle", next, null)).isEqualTo(Outcome.SKIPPED);
        assertThat(this.database.executions().findByIdempotencyKey(ExecutionRecord.idempotencyKey("settle", next)))
                .singleElement()
                .satisfies((skipped) -> {
                    assertThat(skipped.status()).isEqualTo(ExecutionStatus.SKIPPED);
                    assertThat(skipped.statusReason())
                            .isEqualTo("skipped: the shared workers of node node-1 were busy, and an earlier"
                                    + " attempt of the job still waited for one");
                });
        // so is one claimed ahead, which lets go of what it held
        Attempt third = claimedAhead(scheduledAt.plusSeconds(2));
        assertThat(this.executor.waitForWorker("settle", scheduledAt.plusSeconds(2), third))
                .isEqualTo(Outcome.SKIPPED);
        assertThat(this.database
                        .executions()
                        .findById(third.claim().id())
                        .orElseThrow()
                        .status())
                .isEqualTo(ExecutionStatus.SKIPPED);
        assertThat(this.runner.inFlight()).isEmpty();
        assertThat(this.runs).hasValue(0);
        assertThat(this.wakeUps)
                .as("only the attempt that waits woke the queue")
                .hasValue(1);
    }

    private ExecutionRecord claim(Instant scheduledAt) {
        return this.database
                .store()
                .inserts()
                .claim(ExecutionRecord.claim("settle", scheduledAt, "node-1", this.clock.instant()))
                .orElseThrow();
    }

    private SimpleLock takeGuard() {
        return this.locks
                .lock(new LockConfiguration(this.clock.instant(), "settle", Duration.ofMinutes(10), Duration.ZERO))
                .orElseThrow();
    }

    private Attempt claimedAhead(Instant scheduledAt) {
        ExecutionRecord claim = claim(scheduledAt);
        this.runner.hold(claim.id());
        return new Attempt(claim, this.job, null);
    }

    @Test
    void aFireLeftWhileTheDatabaseCutsItsConnectionsIsQueuedOnceItAnswersAgain() {
        CuttingDataSource cutting = new CuttingDataSource(this.database.dataSource());
        try (ExecutionStore store = this.database.storeOver(cutting.dataSource())) {
            FireExecutor executor = executorOver(store);
            Instant scheduledAt = this.clock.instant().truncatedTo(ChronoUnit.SECONDS);
            cutting.cutNext(2);

            executor.leave("settle", scheduledAt, null);

            assertThat(cutting.cutsLeft()).as("every cut was met").isZero();
            assertThat(this.database
                            .executions()
                            .findByIdempotencyKey(ExecutionRecord.idempotencyKey("settle", scheduledAt)))
                    .singleElement()
                    .extracting(ExecutionRecord::status)
                    .isEqualTo(ExecutionStatus.SCHEDULED);
            assertThat(this.runs).hasValue(0);
            assertThat(this.wakeUps).hasValue(1);
        }
    }

    @Test
    void aShardedFiresShardsAreAnnouncedOnceDueAndNeitherAHeldFireNorOneSkippedBehindItIs() {
        JobTarget sharded = new JobTarget(
                "reconcile",
                NodeGroups.DEFAULT,
                Fixtures.retries(1),
                null,
                true,
                null,
                null,
                null,
                new Sharding(3, Map.of()),
                (context, payload) -> {});
        List<Instant> announced = new java.util.concurrent.CopyOnWriteArrayList<>();
        FireExecutor fires = new FireExecutor(
                this.database.store(),
                this.runner,
                this.guard,
                Fixtures.targets(sharded),
                WorkerPools.shared(NodeGroups.defaultOnly(), 1),
                this.wakeUps::incrementAndGet,
                (job) -> announced.add(this.clock.instant()),
                (job) -> List.of(),
                this.clock,
                new ExecutionListener() {});
        // a fire whose worker runs a little before its shards fall due by the database's clock
        Instant first = this.clock.instant().plusMillis(300);

        assertThat(fires.fire("reconcile", first)).isEqualTo(Outcome.DEFERRED);
        // the next fire's shards are written held behind the first's; the one after that is skipped
        assertThat(fires.fire("reconcile", first.plusSeconds(1))).isEqualTo(Outcome.DEFERRED);
        assertThat(fires.fire("reconcile", first.plusSeconds(2))).isEqualTo(Outcome.SKIPPED);

        assertThat(this.database.executions().findByJobName("reconcile")).hasSize(6);
        assertThat(announced)
                .as("announced once written, the held fire not (the queue does as it lets it go), nor the skipped one")
                .hasSize(1);
        assertThat(announced.get(0)).as("once its shards were due").isAfterOrEqualTo(first);
    }

    @Test
    void aBroadcastFireDeliveredAgainIsWrittenOnceThoughTheLiveNodesChangedBetween() {
        JobTarget broadcast = new JobTarget(
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
        // the nodes as the first writer read them, then as a second delivery of the fire does
        java.util.Deque<List<String>> reads =
                new java.util.ArrayDeque<>(List.of(List.of("node-a", "node-b"), List.of("node-a", "node-b", "node-c")));
        FireExecutor fires = new FireExecutor(
                this.database.store(),
                this.runner,
                this.guard,
                Fixtures.targets(broadcast),
                WorkerPools.shared(NodeGroups.defaultOnly(), 1),
                this.wakeUps::incrementAndGet,
                (job) -> {},
                (job) -> reads.pop(),
                this.clock,
                new ExecutionListener() {});
        Instant fire = this.clock.instant().truncatedTo(ChronoUnit.SECONDS);

        assertThat(fires.fire("refresh", fire)).isEqualTo(Outcome.DEFERRED);
        fires.fire("refresh", fire);

        assertThat(reads).as("both deliveries read the live nodes").isEmpty();
        assertThat(this.database.executions().findByJobName("refresh"))
                .as("the fire's attempts, as the first delivery wrote them")
                .extracting(ExecutionRecord::idempotencyKey, ExecutionRecord::nodeId)
                .containsExactlyInAnyOrder(
                        tuple(ExecutionRecord.idempotencyKey("refresh", fire, 0, 2), "node-a"),
                        tuple(ExecutionRecord.idempotencyKey("refresh", fire, 1, 2), "node-b"));
    }

    private FireExecutor executorOver(ExecutionStore store) {
        return TestPipeline.fires(
                store, this.runner, this.guard, new OneJob(), this.wakeUps::incrementAndGet, this.clock);
    }

    private final class OneJob implements JobTargets {

        @Override
        public Optional<JobTarget> find(String name) {
            return "settle".equals(name) ? Optional.of(FireExecutorTests.this.job) : Optional.empty();
        }

        @Override
        public Set<String> names() {
            return Set.of("settle");
        }
    }
}
