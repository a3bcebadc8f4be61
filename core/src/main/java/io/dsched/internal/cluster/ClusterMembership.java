package io.dsched.internal.cluster;

import io.dsched.execution.ExecutionRecord;
import io.dsched.internal.engine.DschedPhases;
import io.dsched.internal.execution.JobTarget;
import io.dsched.internal.execution.JobTargets;
import io.dsched.internal.store.ExecutionStore;
import io.dsched.internal.store.TransientFailures;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * This node's membership of the cluster. It records a heartbeat in database time; it declares a
 * node dead once it has gone unseen for the node timeout, and then takes over that node's running
 * attempts: each is marked failed (fenced on the dead node, so only one node takes it over and the
 * dead node, should it come back, cannot record an outcome) and re-run once as a recovery. At
 * every heartbeat it measures the node's clock against the database's ({@link ClockSkew}).
 *
 * <p>A node only judges others after its own heartbeats have succeeded for a whole node timeout,
 * so that a database outage, during which no node could record a heartbeat, is not mistaken for
 * the death of every other node.
 */
public final class ClusterMembership implements SmartLifecycle {

    private static final Logger logger = LoggerFactory.getLogger(ClusterMembership.class);

    private final NodeTable nodes;

    private final ExecutionStore store;

    private final JobTargets targets;

    private final Runnable wakeQueue;

    private final String nodeId;

    /** The node groups this node serves, recorded whenever it joins. */
    private final Set<String> groups;

    private final Duration heartbeatInterval;

    private final Duration nodeTimeout;

    private final Clock clock;

    private final ClockSkew skew;

    private final Liveness liveness;

    private ScheduledExecutorService timer;

    private volatile boolean running;

    private volatile Instant healthySince;

    /** Whether this node's groups are recorded since it last joined; a failed record is made again. */
    private volatile boolean groupsRecorded;

    private final Instant createdAt;

    private final Function<Instant, Set<Long>> inFlight;

    /** Ends the attempts of broadcast jobs no node will run. */
    private final BroadcastCleanup broadcasts;

    /**
     * Creates the membership of a node.
     * @param nodes the node table
     * @param store the execution history
     * @param targets the jobs and handlers this node can run, for their retry policies
     * @param wakeQueue wakes the queue of waiting attempts, when an attempt is taken over
     * @param inFlight the attempts this node is running or holds for a worker, counting one handed
     *     over to its worker only if it was handed over after the given instant
     * @param nodeId this node
     * @param groups the node groups this node serves: none for a node that runs no jobs
     * @param heartbeatInterval how often to record a heartbeat
     * @param nodeTimeout how long a node may go unseen before it is declared dead
     * @param clock database time, corrected by what {@code skew} measures
     * @param skew measures the node's clock against the database's
     * @param broadcastNodes the nodes that run a broadcast job now
     */
    public ClusterMembership(
            NodeTable nodes,
            ExecutionStore store,
            JobTargets targets,
            Runnable wakeQueue,
            Function<Instant, Set<Long>> inFlight,
            String nodeId,
            Set<String> groups,
            Duration heartbeatInterval,
            Duration nodeTimeout,
            Clock clock,
            ClockSkew skew,
            Function<JobTarget, List<String>> broadcastNodes) {
        this.liveness = new Liveness(nodeId, heartbeatInterval, nodeTimeout);
        this.nodes = nodes;
        this.store = store;
        this.targets = targets;
        this.wakeQueue = wakeQueue;
        this.inFlight = inFlight;
        this.nodeId = nodeId;
        this.groups = Set.copyOf(groups);
        this.heartbeatInterval = heartbeatInterval;
        this.nodeTimeout = nodeTimeout;
        this.clock = clock;
        this.skew = skew;
        this.broadcasts = new BroadcastCleanup(store, targets, broadcastNodes, nodeId, clock);
        // before anything reads database time: the attempts this process starts are compared with it
        measureClock();
        this.createdAt = clock.instant();
    }

    private void measureClock() {
        try {
            this.skew.measure(this.nodes);
        } catch (RuntimeException ex) {
            logger.warn(
                    "Could not measure the clock of node {} against the database's: {}", this.nodeId, ex.getMessage());
        }
    }

    @Override
    public void start() {
        awaitSilenceOfEarlierProcess();
        this.nodes.heartbeat(this.nodeId);
        this.nodes.serve(this.nodeId, this.groups);
        this.groupsRecorded = true;
        this.healthySince = this.clock.instant();
        // attempts left running by an earlier process with this node id cannot be running now;
        // this process's own queue may already have claimed some (Spring starts it first, as a
        // dependency), and those started after this membership was created
        for (ExecutionRecord orphan : this.store.repository().findRunningOn(this.nodeId)) {
            if (orphan.startedAt().isBefore(this.createdAt)) {
                takeOver(orphan, "node " + this.nodeId + " restarted while running it");
            }
        }
        this.timer = Executors.newSingleThreadScheduledExecutor((runnable) -> {
            Thread thread = new Thread(runnable, "dsched-membership");
            thread.setDaemon(true);
            return thread;
        });
        long period = this.heartbeatInterval.toMillis();
        this.running = true;
        this.timer.scheduleWithFixedDelay(this::beat, period, period, TimeUnit.MILLISECONDS);
    }

    /**
     * Waits until no other process records heartbeats under this node's id: an earlier process
     * that died stops within two heartbeats; a live twin does not, and this node refuses to start.
     */
    private void awaitSilenceOfEarlierProcess() {
        Instant deadline = this.clock.instant().plus(this.nodeTimeout);
        Optional<NodeSighting> twin;
        while ((twin = this.liveness.liveTwin(this.nodes.sightings())).isPresent()) {
            if (this.clock.instant().isAfter(deadline)) {
                throw new IllegalStateException("Another running node uses the id '" + this.nodeId
                        + "' (last seen " + twin.get().silence().toMillis() + " ms ago); give each node its own"
                        + " dsched.node-id");
            }
            try {
                Thread.sleep(this.heartbeatInterval.toMillis());
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while waiting to join the cluster", ex);
            }
        }
    }

    private void beat() {
        if (!this.running) {
            return;
        }
        try {
            if (this.nodes.heartbeat(this.nodeId) || !this.groupsRecorded) {
                // forgotten by the others while it could not reach the database: it joins again
                this.groupsRecorded = false;
                this.nodes.serve(this.nodeId, this.groups);
                this.groupsRecorded = true;
            }
            if (this.healthySince == null) {
                this.healthySince = this.clock.instant();
                logger.info("Node {} reaches the database again", this.nodeId);
            }
        } catch (RuntimeException ex) {
            if (this.healthySince != null) {
                logger.warn("Node {} could not record its heartbeat: {}", this.nodeId, ex.getMessage());
            }
            this.healthySince = null;
            return;
        }
        try {
            // on its own: a clock that cannot be measured now does not make the node unhealthy
            this.skew.measure(this.nodes);
        } catch (RuntimeException ex) {
            logger.warn("Node {} could not measure its clock against the database's: {}", this.nodeId, ex.getMessage());
        }
        try {
            rescueStaleOwnAttempts();
            if (judgesOthers()) {
                rescueDeadNodes();
            }
        } catch (RuntimeException ex) {
            logger.warn("Could not look for the work of dead nodes: {}", ex.getMessage());
        }
    }

    /**
     * Whether this node judges the liveness of others: its heartbeats have succeeded for a whole
     * node timeout.
     * @return {@code true} if it does
     */
    boolean judgesOthers() {
        return this.liveness.judgesOthers(this.healthySince, this.clock.instant());
    }

    Liveness liveness() {
        return this.liveness;
    }

    /**
     * Takes over this node's own attempts that are recorded as running but are not: their outcome
     * could not be written, for example while the database was unreachable.
     */
    void rescueStaleOwnAttempts() {
        Instant now = this.clock.instant();
        List<ExecutionRecord> recorded = this.store.repository().findRunningOn(this.nodeId);
        // read after the rows: an attempt claimed while the query ran (and held before its claim
        // committed) is in flight here, however long the query took
        Set<Long> running = this.inFlight.apply(now.minus(this.nodeTimeout));
        for (ExecutionRecord attempt : recorded) {
            if (this.liveness.isStale(attempt, running, now)) {
                takeOver(attempt, "node " + this.nodeId + " lost track of it");
            }
        }
    }

    /** Takes over the running attempts of every node that has gone unseen for the node timeout. */
    void rescueDeadNodes() {
        List<NodeSighting> sightings = this.nodes.sightings();
        Set<String> live = this.liveness.liveNodes(sightings);
        for (ExecutionRecord orphan : this.store.repository().findRunningNotOn(live)) {
            String reason = Liveness.deathOf(orphan.nodeId(), sightings);
            if (this.broadcasts.forItsNodeAlone(orphan)) {
                this.broadcasts.cancelOrphan(orphan, reason);
            } else {
                takeOver(orphan, reason);
            }
        }
        this.broadcasts.cancelStranded();
        int released = this.nodes.releaseLocksNotHeldBy(live);
        if (released > 0) {
            logger.warn("Released {} job lock(s) held by dead nodes", released);
        }
        for (NodeSighting node : sightings) {
            if (!live.contains(node.nodeId())
                    && this.store.repository().findRunningOn(node.nodeId()).isEmpty()) {
                this.nodes.forget(node);
            }
        }
    }

    private void takeOver(ExecutionRecord orphan, String reason) {
        Instant now = this.clock.instant();
        JobTarget target = this.targets.find(orphan.jobName()).orElse(null);
        ExecutionRecord next = Recovery.rerunOf(orphan, target, this.nodeId, now, reason);
        boolean rescued = this.store
                .rescues()
                .rescue(orphan, now, reason, next, (failedAt) -> Recovery.letterOf(orphan, reason, failedAt));
        if (rescued) {
            logger.warn(
                    "Took over attempt {} of '{}' scheduled at {}: {}; {}",
                    orphan.attempt(),
                    orphan.jobName(),
                    orphan.scheduledAt(),
                    reason,
                    (next != null) ? "re-running it" : "dead-lettered it");
            this.wakeQueue.run();
        }
    }

    /**
     * Leaves the cluster: no heartbeat is recorded once this returns, and the node's row is gone,
     * so that the others do not wait a node timeout to take over what it left. A heartbeat under way
     * is awaited first: it could otherwise record the node again after its row was removed.
     */
    @Override
    public void stop() {
        this.running = false;
        if (this.timer != null) {
            // not interrupted: a beat's statement on its way to the database would fail for it
            this.timer.shutdown();
            awaitHeartbeat();
        }
        try {
            // briefly: a deadlock is over at once, and a database closed already stays closed
            TransientFailures.retry("the removal of node " + this.nodeId, this.heartbeatInterval, () -> {
                this.nodes.remove(this.nodeId);
                return null;
            });
        } catch (RuntimeException ex) {
            logger.warn(
                    "Could not remove node {} from dsched_node ({}); the others take over its attempts once it"
                            + " has gone unseen for the node timeout",
                    this.nodeId,
                    ex.getMessage());
        }
        this.broadcasts.cancelOwn();
    }

    private void awaitHeartbeat() {
        try {
            // a heartbeat is a few statements; one stuck on the database outlasts the wait and is
            // left to the node timeout, as a node that died would be
            if (!this.timer.awaitTermination(this.nodeTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
                logger.warn("Node {}'s last heartbeat did not end within the node timeout", this.nodeId);
            }
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public boolean isRunning() {
        return this.running;
    }

    @Override
    public int getPhase() {
        // start before, and stop after, the engine and the queue
        return DschedPhases.MEMBERSHIP;
    }
}
