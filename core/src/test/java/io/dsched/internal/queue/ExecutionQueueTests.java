package io.dsched.internal.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dsched.execution.ExecutionOrigin;
import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.ExecutionStatus;
import io.dsched.internal.engine.GracefulShutdown;
import io.dsched.internal.engine.WorkerThreads;
import io.dsched.internal.execution.AttemptRunner;
import io.dsched.internal.execution.ConcurrencyLimits;
import io.dsched.internal.execution.JobGuard;
import io.dsched.internal.execution.JobTarget;
import io.dsched.internal.execution.JobTargets;
import io.dsched.internal.execution.NodeGroups;
import io.dsched.internal.execution.StopRequests;
import io.dsched.internal.execution.TestPipeline;
import io.dsched.internal.execution.WorkerPools;
import io.dsched.internal.retry.RetryPolicy;
import io.dsched.internal.store.CuttingDataSource;
import io.dsched.internal.store.ExecutionRepository;
import io.dsched.internal.store.ExecutionStore;
import io.dsched.internal.store.InMemoryStore;
import io.dsched.internal.store.LimitOutcomes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The queue on an in-memory H2 database with real workers: what it leaves when its node stops (an
 * attempt held ready in the workers' queue when the shutdown timeout runs out goes back to wait as
 * it was, and the one a worker is running is left running), and what a failed claim leaves.
 */
class ExecutionQueueTests {

    private static final Duration POLL = Duration.ofMillis(100);

    private final InMemoryStore database = new InMemoryStore();

    private final ExecutionRepository executions = this.database.executions();

    private final Clock clock = Clock.systemUTC();

    private final AtomicInteger quickRuns = new AtomicInteger();

    private final CountDownLatch slowStarted = new CountDownLatch(1);

    private final CountDownLatch release = new CountDownLatch(1);

    private final StopRequests stops = new StopRequests((ids) -> Map.of(), Duration.ofHours(1), Duration.ofSeconds(1));

    private final AttemptRunner runner = TestPipeline.runner(
            new Targets(),
            this.database.store(),
            new JobGuard(null, null, Duration.ofMinutes(1), Duration.ZERO, this.clock, "dsched"),
            this.clock,
            this.stops);

    @AfterEach
    void close() {
        this.release.countDown();
        this.runner.close();
        this.stops.close();
        this.database.store().close();
    }

    @Test
    void anAttemptHeldReadyWhenTheShutdownTimeoutRunsOutGoesBackToWaitAsItWasAndTheRunningOneIsLeft() throws Exception {
        ExecutionQueue queue = queue(this.database.store(), this.clock, POLL);
        Instant due = this.clock.instant().minusSeconds(60).truncatedTo(ChronoUnit.MILLIS);
        for (int i = 0; i < 3; i++) {
            waiting("quick", due.plusMillis(i), "one-off");
        }
        queue.start();
        // short attempts: the node now holds ready at least as many as it has workers
        await().atMost(Duration.ofSeconds(10)).until(() -> this.quickRuns.get() == 3);
        long first = waiting("slow", due, "retry after a timeout");
        long second = waiting("slow", due.plusMillis(1), "retry after a timeout");
        await().atMost(Duration.ofSeconds(10))
                .until(() -> this.slowStarted.getCount() == 0
                        && status(first) == ExecutionStatus.RUNNING
                        && status(second) == ExecutionStatus.RUNNING);

        queue.stop();

        List<ExecutionRecord> slow = List.of(
                this.executions.findById(first).orElseThrow(),
                this.executions.findById(second).orElseThrow());
        assertThat(slow)
                .extracting(ExecutionRecord::status)
                .as("one runs on the worker, the other waits again")
                .containsExactlyInAnyOrder(ExecutionStatus.RUNNING, ExecutionStatus.SCHEDULED);
        ExecutionRecord putBack = slow.stream()
                .filter((attempt) -> attempt.status() == ExecutionStatus.SCHEDULED)
                .findFirst()
                .orElseThrow();
        assertThat(putBack.dueAt())
                .as("due when it was due")
                .isEqualTo((putBack.id() == first) ? due : due.plusMillis(1));
        assertThat(putBack.statusReason()).isEqualTo("retry after a timeout");
        assertThat(this.runner.inFlight()).as("the running one only").hasSize(1);
    }

    @Test
    void aClaimThatFailsGivesBackThePlacesItAskedFor() {
        CuttingDataSource cutting = new CuttingDataSource(this.database.dataSource());
        try (ExecutionStore store = this.database.storeWhollyOver(cutting.dataSource())) {
            // one worker: a failed claim that kept its one place would leave the node none to claim
            ExecutionQueue queue = queue(store, this.clock, POLL);
            Instant due = this.clock.instant().minusSeconds(60).truncatedTo(ChronoUnit.MILLIS);
            for (int i = 0; i < 3; i++) {
                waiting("quick", due.plusMillis(i), "one-off");
            }
            cutting.cutNext(1);
            queue.start();
            try {
                await().atMost(Duration.ofSeconds(10)).until(() -> this.quickRuns.get() == 3);
                assertThat(cutting.cutsLeft()).as("the first claim failed").isZero();
            } finally {
                queue.stop();
            }
        }
    }

    /**
     * A notice heard when the attempt it names is due by this node's clock, and a claim just after
     * it by a clock that has stepped back, as the estimate of the database's clock can when it is
     * measured again: the claim finds nothing, and the node looks again at the notice's time
     * instead of waiting for its poll.
     */
    @Test
    void aNoticeWhoseClaimRanBeforeItsTimeByAClockThatSteppedBackIsLookedAtAgainAtThatTime() {
        SteppingClock nodeClock = new SteppingClock(this.clock);
        ExecutionQueue queue = queue(this.database.store(), nodeClock, Duration.ofHours(1));
        queue.start();
        try {
            // the first look as the node starts, and the wait for the poll after it
            await().atMost(Duration.ofSeconds(5)).until(() -> nodeClock.readings() >= 2);
            Instant due = this.clock.instant().truncatedTo(ChronoUnit.MILLIS);
            waiting("quick", due, "one-off");
            nodeClock.stepBackAfterNextReading(Duration.ofMillis(300));
            queue.wakeUp(due);

            await().atMost(Duration.ofSeconds(5)).until(() -> this.quickRuns.get() == 1);
        } finally {
            queue.stop();
        }
    }

    /** The system clock, moved back once by a step after the reading that follows a call to arm it. */
    private static final class SteppingClock extends Clock {

        private final Clock system;

        private final AtomicReference<Duration> armed = new AtomicReference<>();

        private volatile Duration back = Duration.ZERO;

        private final AtomicInteger readings = new AtomicInteger();

        SteppingClock(Clock system) {
            this.system = system;
        }

        void stepBackAfterNextReading(Duration step) {
            this.armed.set(step);
        }

        int readings() {
            return this.readings.get();
        }

        @Override
        public Instant instant() {
            this.readings.incrementAndGet();
            Instant now = this.system.instant().minus(this.back);
            Duration step = this.armed.getAndSet(null);
            if (step != null) {
                this.back = this.back.plus(step);
            }
            return now;
        }

        @Override
        public ZoneId getZone() {
            return this.system.getZone();
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException();
        }
    }

    /** A queue of one worker over the store, claiming by the clock, with a 300 ms shutdown timeout. */
    private ExecutionQueue queue(ExecutionStore store, Clock nodeClock, Duration poll) {
        return new ExecutionQueue(
                store,
                this.runner,
                List.of(new WorkerPools.Pool(WorkerPools.SHARED, 1, new Targets())),
                ConcurrencyLimits.NONE,
                new LimitOutcomes((name) -> false, List.of()),
                (group) -> 1,
                (job) -> {},
                nodeClock,
                poll,
                WorkerThreads.PLATFORM,
                new GracefulShutdown(Duration.ofMillis(300), this.clock),
                true);
    }

    private long waiting(String jobName, Instant due, String reason) {
        return this.executions
                .save(ExecutionRecord.waiting(
                        jobName,
                        due,
                        1,
                        jobName + "@" + due.toEpochMilli(),
                        ExecutionOrigin.ONE_OFF,
                        "node-0",
                        due,
                        due,
                        null,
                        reason))
                .id();
    }

    private ExecutionStatus status(long id) {
        return this.executions.findById(id).orElseThrow().status();
    }

    /** A quick job, and a slow one that runs until the test ends. */
    private final class Targets implements JobTargets {

        private final RetryPolicy once = new RetryPolicy(
                1, Duration.ofSeconds(1), 1.0, Duration.ofSeconds(1), Duration.ZERO, List.of(), List.of());

        @Override
        public Optional<JobTarget> find(String name) {
            return switch (name) {
                case "quick" ->
                    Optional.of(new JobTarget(
                            name,
                            NodeGroups.DEFAULT,
                            this.once,
                            null,
                            false,
                            null,
                            null,
                            null,
                            null,
                            (context, payload) -> quickRuns.incrementAndGet()));
                case "slow" ->
                    Optional.of(new JobTarget(
                            name,
                            NodeGroups.DEFAULT,
                            this.once,
                            null,
                            false,
                            null,
                            null,
                            null,
                            null,
                            (context, payload) -> {
                                slowStarted.countDown();
                                release.await();
                            }));
                default -> Optional.empty();
            };
        }

        @Override
        public Set<String> names() {
            return Set.of("quick", "slow");
        }
    }
}
