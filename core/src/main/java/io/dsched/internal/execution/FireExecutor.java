package io.dsched.internal.execution;

import io.dsched.execution.ExecutionListener;
import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.Outcome;
import io.dsched.internal.store.ExecutionInserts;
import io.dsched.internal.store.ExecutionStore;
import io.dsched.internal.store.TransientFailures;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pipeline's claim stage for fires: claims the first attempt of a fire of a scheduled job,
 * in the transaction that fires it or on the worker, then hands it to the {@link AttemptRunner}.
 * A fire delivered twice is claimed once.
 */
public final class FireExecutor {

    private static final Logger logger = LoggerFactory.getLogger(FireExecutor.class);

    /**
     * How long to keep trying to claim a fire while the database is unreachable. A claim that
     * was written although its answer was lost is found by the membership's sweep of stale
     * attempts and run again.
     */
    static final Duration CLAIM_PATIENCE = Duration.ofMinutes(1);

    private final ExecutionStore store;

    private final AttemptRunner runner;

    /** The jobs this node declares. */
    private final JobTargets targets;

    /** The groups this node serves, and the worker pools it runs them in. */
    private final WorkerPools pools;

    /** The jobs this node runs: those it declares, in a group it serves. */
    private final JobTargets served;

    private final Runnable wakeQueue;

    private final Consumer<String> shardsDue;

    private final Function<JobTarget, List<String>> broadcastNodes;

    private final Clock clock;

    private final ExecutionListener listener;

    private final ClaimsInTransaction inTransaction;

    private final FireHandBack handBack;

    /**
     * Creates an executor.
     * @param store the execution history
     * @param runner runs claimed attempts
     * @param guard the overlap guard, for fires claimed in the transaction that fires them
     * @param targets the jobs this node declares
     * @param pools the node groups this node serves, and its worker pools: a fire of a job in
     *     another group waits for a node that serves it
     * @param wakeQueue makes this node's queue look for due attempts at once
     * @param shardsDue announces that a job's shards are written, once they are committed: wakes
     *     this node's queue and, where notices reach them, every node's that runs the job
     * @param broadcastNodes the live nodes that run a broadcast job, by id, as its fire is written
     * @param clock the clock
     * @param listener hears of fires not run on this node
     */
    public FireExecutor(
            ExecutionStore store,
            AttemptRunner runner,
            JobGuard guard,
            JobTargets targets,
            WorkerPools pools,
            Runnable wakeQueue,
            Consumer<String> shardsDue,
            Function<JobTarget, List<String>> broadcastNodes,
            Clock clock,
            ExecutionListener listener) {
        this.shardsDue = shardsDue;
        this.broadcastNodes = broadcastNodes;
        this.listener = listener;
        this.store = store;
        this.runner = runner;
        this.targets = targets;
        this.pools = pools;
        this.served = pools.groups().served(targets);
        this.wakeQueue = wakeQueue;
        this.clock = clock;
        this.inTransaction =
                new ClaimsInTransaction(store, guard, targets, pools.groups(), runner.nodeId(), broadcastNodes);
        this.handBack = new FireHandBack(store, runner, pools, wakeQueue, clock, listener);
    }

    /**
     * Claims fires in the transaction that fires them, so that their workers need no commit of
     * their own for the claim or the guard: the first attempt of each fire of a job this node
     * declares and, for a guarded job, the job's lock, if the fire is due or no other attempt of
     * the job waits (otherwise its worker takes the lock as it starts the fire). A fire whose guard another run holds, or
     * that is claimed already, is left to its worker, which handles it as usual; so is every fire
     * of a guarded job when the guard cannot lock inside a transaction.
     * @param connection the connection of the fire's transaction
     * @param fires the fires Quartz is about to hand to this node's workers
     * @return the attempts claimed, by fire, for the workers to {@link #run}; valid once the
     *     transaction has committed, and not at all if it has not
     * @throws SQLException if a statement fails, which fails the transaction
     */
    public Map<Fire, Attempt> claimAhead(Connection connection, List<Fire> fires) throws SQLException {
        Map<Fire, Attempt> byFire = this.inTransaction.claim(connection, fires, this.clock.instant());
        // in flight from the claim, not from the worker's start: should the commit's answer be
        // lost, Quartz confirms the fires only once the database answers again, and meanwhile the
        // membership's sweep of stale attempts must not take these over as lost
        for (Attempt attempt : byFire.values()) {
            this.runner.hold(attempt.claim().id());
        }
        return byFire;
    }

    /**
     * Notes that the worker of an attempt {@link #claimAhead claimed ahead} is starting it: one
     * that has not run it within the node timeout never will (a listener of Quartz's vetoed the
     * fire), and the membership's sweep of stale attempts may take it over. Until then the attempt
     * is held, however long it waits for its time or for a worker.
     * @param claimedAhead the attempt
     */
    public void handedOver(Attempt claimedAhead) {
        this.runner.handOver(claimedAhead.claim().id());
    }

    /**
     * Lets go of attempts {@link #claimAhead claimed ahead} in a transaction that did not commit,
     * or that is not known to have: they are not in flight on this node. Should they have been
     * committed after all, the membership's sweep of stale attempts takes them over.
     * @param claimedAhead the attempts
     */
    public void notCommitted(Collection<Attempt> claimedAhead) {
        for (Attempt attempt : claimedAhead) {
            this.runner.letGo(attempt.claim().id());
        }
    }

    /**
     * Runs a fire claimed in the transaction that fired it.
     * @param claimedAhead the attempt {@link #claimAhead} claimed for it
     * @return what became of the fire
     */
    public Outcome run(Attempt claimedAhead) {
        return this.runner.run(claimedAhead);
    }

    /**
     * Leaves a fire that reached a worker after this node stopped taking work, or that was fired
     * ahead and will reach no worker here, to any node: its first attempt waits, due at its time
     * or at once if that has passed, whether it was claimed in the fire's transaction (then it
     * is put back, and the guard taken with it let go) or not yet (then it is queued). It never
     * ran, so it counts as no failure. See {@link FireHandBack#leave}.
     * @param jobName the job
     * @param scheduledAt the time the fire was scheduled for
     * @param claimedAhead the attempt claimed in the fire's transaction, or {@code null}
     */
    public void leave(String jobName, Instant scheduledAt, Attempt claimedAhead) {
        Optional<JobTarget> sharded = this.targets.sharded(jobName);
        if (sharded.isPresent() && claimedAhead == null) {
            // its shards wait for any node, as they would have had this node taken the fire
            fanOut(sharded.get(), scheduledAt);
            return;
        }
        this.handBack.leave(jobName, scheduledAt, claimedAhead);
    }

    /**
     * Returns the group of a job this node runs, which picks the worker pool its fires run in.
     * @param jobName the job
     * @return its group, or {@link WorkerPools#SHARED} if this node does not run it
     */
    public String groupOf(String jobName) {
        return this.served.find(jobName).map(JobTarget::group).orElse(WorkerPools.SHARED);
    }

    /**
     * Hands a fire whose pool's workers on this node were all busy to the queue, to wait for a free
     * worker of its group on any node; or records it skipped while an earlier attempt of its job,
     * due already, still waits (see {@link FireHandBack#waitForWorker}). A fire of a job this node
     * does not run is queued for a node that runs it, as {@link #fire} does.
     * @param jobName the job
     * @param scheduledAt the time the fire was scheduled for
     * @param claimedAhead the attempt claimed in the fire's transaction, or {@code null}
     * @return what became of the fire
     */
    public Outcome waitForWorker(String jobName, Instant scheduledAt, Attempt claimedAhead) {
        Optional<JobTarget> job = this.served.find(jobName);
        if ((job.isEmpty() || job.get().jitter() != null || job.get().shards() != null) && claimedAhead == null) {
            // queued as a fire of another group, staggered or sharded, it takes no worker of its pool
            return fire(jobName, scheduledAt);
        }
        return this.handBack.waitForWorker(
                jobName, scheduledAt, claimedAhead, job.map(JobTarget::group).orElse(NodeGroups.DEFAULT));
    }

    /**
     * Queues the shards of a sharded job's fire for the queue of any node of its group (see
     * {@link ShardFanOut}); tried again while the database fails transiently, as a claim is.
     */
    private Outcome fanOut(JobTarget declared, Instant scheduledAt) {
        Instant now = this.clock.instant();
        boolean broadcast = declared.shards().broadcast();
        // the shards in force and a broadcast job's nodes are read as the fire is written, and
        // again with each try of its write
        Instant[] due = new Instant[1];
        ExecutionInserts.FireInsert written =
                TransientFailures.retry("the shards of the fire of '" + declared.name() + "'", CLAIM_PATIENCE, () -> {
                    JobTarget job = ShardFanOut.inForce(declared, this.store.shardSettings());
                    List<String> nodes = broadcast ? this.broadcastNodes.apply(job) : List.of();
                    if (broadcast && nodes.isEmpty()) {
                        return null;
                    }
                    due[0] = ShardFanOut.due(job, scheduledAt, now);
                    return this.store
                            .inserts()
                            .insertFire(
                                    job.name(),
                                    scheduledAt,
                                    !job.shards().overlap(),
                                    (held) -> ShardFanOut.attempts(
                                            job, scheduledAt, this.runner.nodeId(), nodes, now, due[0], held));
                });
        if (written == null) {
            logger.warn(
                    "Skipped the fire of '{}' scheduled at {}: no live node runs the broadcast job",
                    declared.name(),
                    scheduledAt);
            this.listener.skipped(declared.name(), ExecutionListener.SkipReason.OTHER_GROUP);
            return Outcome.SKIPPED;
        }

        if (written == ExecutionInserts.FireInsert.SKIPPED) {
            logger.info(
                    "Skipped the fire of '{}' scheduled at {}: an earlier fire of the job is held behind a run of it",
                    declared.name(),
                    scheduledAt);
            this.listener.skipped(declared.name(), ExecutionListener.SkipReason.GUARD_HELD);
            return Outcome.SKIPPED;
        }
        // queued now, or by the transaction that fired it (PostgreSQL, MariaDB), committed either
        // way; its worker runs at the fire's time by this JVM's clock, which may run a little ahead
        // of the database's, by which the shards fall due: announced once they are due, for the
        // queues look at the notice's time (a jitter's beyond the wait they find at their next poll;
        // a held fire's are announced as they are let go)
        if (!this.store.shardedFires().heldFire(declared.name(), scheduledAt)) {
            awaitDue(due[0]);
            this.shardsDue.accept(declared.name());
        }
        return Outcome.DEFERRED;
    }

    /** Waits, up to {@link #DUE_WAIT}, for a time by the database's clock. */
    private void awaitDue(Instant due) {
        Duration ahead = Duration.between(this.clock.instant(), due);
        if (ahead.isNegative() || ahead.isZero() || ahead.compareTo(DUE_WAIT) > 0) {
            return;
        }
        try {
            Thread.sleep(ahead.toMillis() + 1);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    /** The longest a fire's worker waits for its shards to fall due before it announces them. */
    private static final Duration DUE_WAIT = Duration.ofSeconds(1);

    /**
     * Queues a fire of a job with a jitter window, due at its offset time, for the queue of any node
     * of its group; tried again while the database fails transiently, as a claim is.
     */
    private Outcome stagger(String jobName, Instant scheduledAt, Duration jitter) {
        Instant now = this.clock.instant();
        Instant start = Jitter.startOf(jobName, scheduledAt, jitter);
        boolean queued = TransientFailures.retry(
                "the fire of '" + jobName + "' staggered",
                CLAIM_PATIENCE,
                () -> this.handBack.queue(
                        jobName,
                        scheduledAt,
                        start.isAfter(now) ? start : now,
                        Jitter.reason(scheduledAt, start, jitter)));
        if (queued) {
            this.wakeQueue.run();
        }
        // else queued already, as the transaction that fired it does on PostgreSQL and MariaDB
        return Outcome.DEFERRED;
    }

    /**
     * Runs a fire, unless another node already claimed it.
     * @param jobName the job
     * @param scheduledAt the time the fire was scheduled for
     * @return what became of the fire
     */
    public Outcome fire(String jobName, Instant scheduledAt) {
        Optional<JobTarget> served = this.served.find(jobName);
        Optional<JobTarget> declared = served.isPresent() ? served : this.targets.find(jobName);
        // a job this node does not know may be a runtime job of a handler it does not declare
        Optional<JobTarget> sharded =
                declared.isPresent() ? declared.filter((job) -> job.shards() != null) : this.targets.sharded(jobName);
        if (sharded.isPresent()) {
            // its shards wait for any node of its group, whichever node took the fire
            return fanOut(sharded.get(), scheduledAt);
        }
        if (served.isEmpty()) {
            // a newer deployment's job fired on this older node, or a job of a group this node does
            // not serve: queue the fire for a node that runs it
            logger.debug("Queueing '{}' scheduled at {} for a node that runs it", jobName, scheduledAt);
            // its worker runs at its time: due at once; tried again while the database fails
            // transiently, as a claim is, for the fire has no other record yet
            String reason = this.pools.groups().whyNotHere(declared, this.runner.nodeId());
            Instant due = Jitter.dueAt(jobName, scheduledAt, declared, this.clock.instant());
            TransientFailures.retry(
                    "the fire of '" + jobName + "' queued for another node",
                    CLAIM_PATIENCE,
                    () -> this.handBack.queue(jobName, scheduledAt, due, reason));
            this.wakeQueue.run();
            this.listener.skipped(
                    jobName,
                    declared.isPresent()
                            ? ExecutionListener.SkipReason.OTHER_GROUP
                            : ExecutionListener.SkipReason.NOT_DECLARED);
            return Outcome.DEFERRED;
        }
        if (served.get().jitter() != null) {
            return stagger(jobName, scheduledAt, served.get().jitter());
        }
        // the claim's start is read at each try: the sweep of stale attempts measures from it
        Optional<ExecutionRecord> claimed =
                TransientFailures.retry("the claim of '" + jobName + "'", CLAIM_PATIENCE, () -> this.store
                        .inserts()
                        .claim(ExecutionRecord.claim(
                                jobName, scheduledAt, this.runner.nodeId(), this.clock.instant())));
        if (claimed.isEmpty()) {
            logger.debug("Not running '{}' scheduled at {}: already claimed", jobName, scheduledAt);
            this.listener.skipped(jobName, ExecutionListener.SkipReason.ALREADY_CLAIMED);
            return Outcome.ALREADY_CLAIMED;
        }
        return this.runner.run(claimed.get());
    }
}
