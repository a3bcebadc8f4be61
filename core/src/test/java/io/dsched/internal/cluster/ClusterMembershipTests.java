package io.dsched.internal.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.dsched.execution.ExecutionOrigin;
import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.ExecutionStatus;
import io.dsched.internal.execution.JobTarget;
import io.dsched.internal.execution.JobTargets;
import io.dsched.internal.execution.NodeGroups;
import io.dsched.internal.execution.Sharding;
import io.dsched.internal.retry.RetryPolicy;
import io.dsched.internal.store.ClusterTables;
import io.dsched.internal.store.DatabasePlatform;
import io.dsched.internal.store.ExecutionRepository;
import io.dsched.internal.store.ExecutionStore;
import io.dsched.internal.store.InMemoryStore;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.StreamSupport;
import javax.sql.DataSource;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * What a node's membership takes over, on an in-memory H2 database, no Spring context: the running
 * attempts of a node gone silent, once, whichever of the nodes that judge it dead comes first; its
 * own attempts it lost track of, but none it is running; nothing of a live node.
 */
class ClusterMembershipTests {

    private static final Duration HEARTBEAT = Duration.ofMillis(500);

    private static final Duration NODE_TIMEOUT = Duration.ofSeconds(10);

    private static final Instant FIRE = Instant.parse("2031-01-01T00:00:00Z");

    private final SettableClock nodeClock = new SettableClock(Instant.now());

    private final DatabaseClock clock = new DatabaseClock(this.nodeClock);

    private final AtomicInteger wakeUps = new AtomicInteger();

    private JdbcTemplate sql;

    private DataSource dataSource;

    private NodeTable nodes;

    private ExecutionStore store;

    private ExecutionRepository executions;

    @BeforeEach
    void createDatabase() {
        InMemoryStore database = new InMemoryStore();
        this.dataSource = database.dataSource();
        this.sql = new JdbcTemplate(database.dataSource());
        this.executions = database.executions();
        this.store = database.store();
        this.nodes = new NodeTable(database.dataSource(), DatabasePlatform.H2, ClusterTables.DEFAULT);
    }

    @Test
    void aSilentNodesRunningAttemptIsTakenOverOnceAndTheNodeForgottenWhileALiveNodesIsLeftAlone() {
        this.nodes.heartbeat("node-1");
        this.nodes.heartbeat("node-2");
        lastSeen("node-dead", NODE_TIMEOUT.plusSeconds(1));
        long orphan = running("settle", "node-dead", Duration.ofMinutes(5));
        long alive = running("report", "node-2", Duration.ofMinutes(5));

        // node-2 read the orphan as running before node-1 took it over
        ExecutionRecord staleRead = this.executions.findById(orphan).orElseThrow();
        membership("node-1", (handedOverAfter) -> Set.of()).rescueDeadNodes();
        membership("node-2", (handedOverAfter) -> Set.of()).rescueDeadNodes();
        Instant now = this.clock.instant();
        boolean secondTakeover = this.store
                .rescues()
                .rescue(
                        staleRead,
                        now,
                        "node-dead died",
                        Recovery.rerunOf(staleRead, null, "node-2", now, "node-dead died"),
                        (failedAt) -> Recovery.letterOf(staleRead, "node-dead died", failedAt));
        assertThat(secondTakeover).as("fenced on the orphan's running row").isFalse();

        List<ExecutionRecord> settle = attempts("settle");
        assertThat(settle).hasSize(2);
        assertThat(settle.get(0).id()).isEqualTo(orphan);
        assertThat(settle.get(0).status()).isEqualTo(ExecutionStatus.FAILED);
        assertThat(settle.get(0).statusReason()).contains("node-dead");
        assertThat(settle.get(1).origin())
                .as("re-run once, though two nodes judged its node dead")
                .isEqualTo(ExecutionOrigin.RECOVERY);
        assertThat(settle.get(1).status()).isEqualTo(ExecutionStatus.RETRY_SCHEDULED);
        assertThat(this.wakeUps)
                .as("the node that took it over wakes its queue")
                .hasValue(1);
        assertThat(this.executions.findById(alive).orElseThrow().status()).isEqualTo(ExecutionStatus.RUNNING);
        assertThat(this.nodes.sightings()).extracting(NodeSighting::nodeId).containsOnly("node-1", "node-2");
    }

    @Test
    void aNodeSilentForNoLongerThanTheNodeTimeoutKeepsItsAttempts() {
        this.nodes.heartbeat("node-1");
        lastSeen("node-slow", NODE_TIMEOUT.dividedBy(2));
        long slow = running("settle", "node-slow", Duration.ofMinutes(5));

        membership("node-1", (handedOverAfter) -> Set.of()).rescueDeadNodes();

        assertThat(this.executions.findById(slow).orElseThrow().status()).isEqualTo(ExecutionStatus.RUNNING);
        assertThat(this.nodes.sightings()).extracting(NodeSighting::nodeId).contains("node-slow");
        assertThat(this.wakeUps).hasValue(0);
    }

    @Test
    void aNodeTakesBackItsOwnAttemptsItLostTrackOfButNoneItIsRunning() {
        this.nodes.heartbeat("node-1");
        long lost = running("settle", "node-1", NODE_TIMEOUT.plusSeconds(1));
        long runningHere = running("report", "node-1", NODE_TIMEOUT.plusSeconds(1));
        long justClaimed = running("notify", "node-1", Duration.ofSeconds(1));

        membership("node-1", (handedOverAfter) -> Set.of(runningHere)).rescueStaleOwnAttempts();

        assertThat(this.executions.findById(lost).orElseThrow().statusReason()).contains("lost track of it");
        assertThat(attempts("settle"))
                .extracting(ExecutionRecord::origin)
                .containsExactly(ExecutionOrigin.SCHEDULE, ExecutionOrigin.RECOVERY);
        assertThat(this.executions.findById(runningHere).orElseThrow().status())
                .as("in flight on this node")
                .isEqualTo(ExecutionStatus.RUNNING);
        assertThat(this.executions.findById(justClaimed).orElseThrow().status())
                .as("claimed less than a node timeout ago, its outcome may still come")
                .isEqualTo(ExecutionStatus.RUNNING);
    }

    @Test
    void aNodeCountsAsRunningOnlyTheAttemptsItsWorkersWereHandedLessThanANodeTimeoutAgo() {
        this.nodes.heartbeat("node-1");
        running("settle", "node-1", NODE_TIMEOUT.plusSeconds(1));
        List<Instant> asked = new java.util.ArrayList<>();

        membership("node-1", (handedOverAfter) -> {
                    asked.add(handedOverAfter);
                    return Set.of();
                })
                .rescueStaleOwnAttempts();

        assertThat(asked).containsExactly(this.clock.instant().minus(NODE_TIMEOUT));
    }

    @Test
    void aNodeThatStopsAwaitsItsHeartbeatUnderWaySoThatItIsNotRecordedAgainOnceItLeft() throws Exception {
        HeldHeartbeats held = new HeldHeartbeats(this.dataSource);
        ClusterMembership membership = new ClusterMembership(
                held,
                this.store,
                new NoTargets(),
                this.wakeUps::incrementAndGet,
                (handedOverAfter) -> Set.of(),
                "node-1",
                Set.of("default"),
                Duration.ofMillis(10),
                NODE_TIMEOUT,
                this.clock,
                new ClockSkew(this.clock, Duration.ofSeconds(5), "node-1"),
                (job) -> java.util.List.of());
        membership.start();
        assertThat(held.started.await(10, TimeUnit.SECONDS))
                .as("a heartbeat of the timer under way")
                .isTrue();

        Thread stopping = new Thread(membership::stop, "stopping");
        stopping.start();
        // the stop has let the timer go: it either returned or waits for the heartbeat
        Awaitility.await()
                .atMost(Duration.ofSeconds(10))
                .until(() -> stopping.getState() == Thread.State.TIMED_WAITING
                        || stopping.getState() == Thread.State.TERMINATED);
        held.release.countDown();
        stopping.join(Duration.ofSeconds(10).toMillis());

        assertThat(stopping.isAlive()).isFalse();
        assertThat(held.finished.await(10, TimeUnit.SECONDS))
                .as("the held heartbeat written")
                .isTrue();
        assertThat(this.nodes.sightings())
                .as("the node's row after it left, its last heartbeat done")
                .extracting(NodeSighting::nodeId)
                .doesNotContain("node-1");
    }

    @Test
    void aNodeForgottenByTheOthersRecordsItsGroupsAgainWhenItRejoinsEvenIfTheFirstRecordFails() {
        FailingGroupRecords failing = new FailingGroupRecords(this.dataSource);
        ClusterMembership membership = new ClusterMembership(
                failing,
                this.store,
                new NoTargets(),
                this.wakeUps::incrementAndGet,
                (handedOverAfter) -> Set.of(),
                "node-1",
                Set.of("reports", "default"),
                Duration.ofMillis(10),
                NODE_TIMEOUT,
                this.clock,
                new ClockSkew(this.clock, Duration.ofSeconds(5), "node-1"),
                (job) -> java.util.List.of());
        membership.start();
        try {
            assertThat(this.nodes.groups()).containsEntry("node-1", Set.of("default", "reports"));

            // the others forget the node, as after an outage longer than the node timeout; its record
            // of its groups on rejoining fails once
            failing.failNext.set(true);
            this.sql.update("DELETE FROM dsched_node WHERE node_id = 'node-1'");
            this.sql.update("DELETE FROM dsched_node_group WHERE node_id = 'node-1'");

            Awaitility.await()
                    .atMost(Duration.ofSeconds(10))
                    .until(() -> !failing.failNext.get() && this.nodes.groups().containsKey("node-1"));
            assertThat(this.nodes.groups()).containsEntry("node-1", Set.of("default", "reports"));
        } finally {
            membership.stop();
        }
    }

    private ClusterMembership membership(String nodeId, Function<Instant, Set<Long>> inFlight) {
        return membership(nodeId, inFlight, new NoTargets(), (job) -> List.of());
    }

    private ClusterMembership membership(
            String nodeId,
            Function<Instant, Set<Long>> inFlight,
            JobTargets targets,
            Function<JobTarget, List<String>> broadcastNodes) {
        ClockSkew skew = new ClockSkew(this.clock, Duration.ofSeconds(5), nodeId);
        return new ClusterMembership(
                this.nodes,
                this.store,
                targets,
                this.wakeUps::incrementAndGet,
                inFlight,
                nodeId,
                Set.of("default"),
                HEARTBEAT,
                NODE_TIMEOUT,
                this.clock,
                skew,
                broadcastNodes);
    }

    @Test
    void aBroadcastJobsAttemptsForNodesThatDoNotRunItAreCancelledNotRunElsewhere() {
        this.nodes.heartbeat("node-1");
        this.nodes.heartbeat("node-other");
        lastSeen("node-dead", NODE_TIMEOUT.plusSeconds(1));
        JobTarget refresh = new JobTarget(
                "refresh",
                NodeGroups.DEFAULT,
                new RetryPolicy(3, Duration.ZERO, 1, Duration.ZERO, Duration.ZERO, List.of(), List.of()),
                null,
                true,
                null,
                null,
                null,
                Sharding.BROADCAST,
                (context, payload) -> {});
        // the dead node's shard of a fire, running
        long deadRunning = this.executions
                .save(ExecutionRecord.waiting(
                                "refresh",
                                FIRE,
                                1,
                                ExecutionRecord.idempotencyKey("refresh", FIRE, 2, 3),
                                ExecutionOrigin.SCHEDULE,
                                "node-dead",
                                this.clock.instant().minus(Duration.ofMinutes(1)),
                                FIRE,
                                null,
                                null)
                        .claimedBy("node-dead", this.clock.instant().minus(Duration.ofMinutes(1))))
                .id();
        Instant old = this.clock.instant().minus(Duration.ofMinutes(1));
        // written for node-other, alive but not running the job (another release): stranded
        long stranded = waiting(ExecutionRecord.idempotencyKey("refresh", FIRE, 0, 3), "node-other", old);
        // written for a node that runs it; written for node-other a moment ago (it may have joined
        // since the nodes were read); a run by hand, for any node
        long own = waiting(ExecutionRecord.idempotencyKey("refresh", FIRE, 1, 3), "node-1", old);
        long fresh = waiting(
                ExecutionRecord.idempotencyKey("refresh", FIRE.plusSeconds(2), 2, 3),
                "node-other",
                this.clock.instant());
        long byHand = waiting(ExecutionRecord.idempotencyKey("refresh", FIRE.plusSeconds(1)), "node-other", old);

        membership("node-1", (handedOverAfter) -> Set.of(), targets(refresh), (job) -> List.of("node-1"))
                .rescueDeadNodes();

        assertThat(this.executions.findById(deadRunning)).get().satisfies((row) -> {
            assertThat(row.status()).isEqualTo(ExecutionStatus.CANCELLED);
            assertThat(row.statusReason()).contains("broadcast");
        });
        assertThat(attempts("refresh"))
                .as("the dead node's attempt is not run again")
                .hasSize(5);
        assertThat(this.executions.findById(stranded).orElseThrow().status()).isEqualTo(ExecutionStatus.CANCELLED);
        assertThat(this.executions.findById(own).orElseThrow().status()).isEqualTo(ExecutionStatus.SCHEDULED);
        assertThat(this.executions.findById(fresh).orElseThrow().status()).isEqualTo(ExecutionStatus.SCHEDULED);
        assertThat(this.executions.findById(byHand).orElseThrow().status()).isEqualTo(ExecutionStatus.SCHEDULED);
    }

    private long waiting(String key, String nodeId, Instant writtenAt) {
        return this.executions
                .save(ExecutionRecord.waiting(
                        "refresh", FIRE, 1, key, ExecutionOrigin.SCHEDULE, nodeId, writtenAt, writtenAt, null, null))
                .id();
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

    private void lastSeen(String nodeId, Duration ago) {
        this.sql.update(
                "INSERT INTO dsched_node (node_id, started_at, last_seen) VALUES (?, DATEADD('HOUR', -1,"
                        + " CURRENT_TIMESTAMP), DATEADD('MILLISECOND', ?, CURRENT_TIMESTAMP))",
                nodeId,
                -ago.toMillis());
    }

    private long running(String jobName, String nodeId, Duration startedAgo) {
        Instant startedAt = this.clock.instant().minus(startedAgo);
        return this.executions
                .save(ExecutionRecord.claim(jobName, FIRE, nodeId, startedAt))
                .id();
    }

    private List<ExecutionRecord> attempts(String jobName) {
        return StreamSupport.stream(this.executions.findAll().spliterator(), false)
                .filter((attempt) -> attempt.jobName().equals(jobName))
                .sorted(Comparator.comparingInt(ExecutionRecord::attempt))
                .toList();
    }

    /** A node table whose next record of a node's groups fails once, when told to. */
    private static final class FailingGroupRecords extends NodeTable {

        final AtomicBoolean failNext = new AtomicBoolean();

        FailingGroupRecords(DataSource dataSource) {
            super(dataSource, DatabasePlatform.H2, ClusterTables.DEFAULT);
        }

        @Override
        public void serve(String nodeId, Collection<String> groups) {
            if (this.failNext.compareAndSet(true, false)) {
                throw new IllegalStateException("the database did not answer");
            }
            super.serve(nodeId, groups);
        }
    }

    /** A node whose heartbeats after the first are held, as a statement slow on the database is. */
    private static final class HeldHeartbeats extends NodeTable {

        final CountDownLatch started = new CountDownLatch(1);

        final CountDownLatch release = new CountDownLatch(1);

        final CountDownLatch finished = new CountDownLatch(1);

        private final AtomicInteger beats = new AtomicInteger();

        HeldHeartbeats(DataSource dataSource) {
            super(dataSource, DatabasePlatform.H2, ClusterTables.DEFAULT);
        }

        @Override
        public boolean heartbeat(String nodeId) {
            if (this.beats.incrementAndGet() > 1) {
                this.started.countDown();
                // a statement on its way to the database does not heed an interrupt
                boolean interrupted = false;
                while (this.release.getCount() > 0) {
                    try {
                        this.release.await();
                    } catch (InterruptedException ex) {
                        interrupted = true;
                    }
                }
                boolean joined = super.heartbeat(nodeId);
                this.finished.countDown();
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
                return joined;
            }
            return super.heartbeat(nodeId);
        }
    }

    /** A node that declares none of the jobs: what it takes over is re-run wherever they are declared. */
    private static final class NoTargets implements JobTargets {

        @Override
        public Optional<JobTarget> find(String name) {
            return Optional.empty();
        }

        @Override
        public Set<String> names() {
            return Set.of();
        }
    }
}
