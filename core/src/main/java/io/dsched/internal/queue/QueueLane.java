package io.dsched.internal.queue;

import io.dsched.execution.ExecutionRecord;
import io.dsched.internal.engine.GracefulShutdown;
import io.dsched.internal.engine.WorkerThreads;
import io.dsched.internal.execution.AttemptRunner;
import io.dsched.internal.execution.ConcurrencyLimits;
import io.dsched.internal.execution.JobTargets;
import io.dsched.internal.store.ExecutionStore;
import io.dsched.internal.store.LimitOutcomes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.ToIntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One worker pool of the {@link ExecutionQueue}: it claims the due attempts of the targets the pool
 * runs, no more than it has free workers for plus those held ready ({@link Intake}), and runs them
 * on its workers, with a poller of its own.
 */
final class QueueLane {

    private static final Logger logger = LoggerFactory.getLogger(QueueLane.class);

    private final ExecutionStore store;

    private final AttemptRunner runner;

    private final JobTargets targets;

    private final ConcurrencyLimits limits;

    private final LaneClaims claims;

    private final Clock clock;

    private final Duration pollInterval;

    private final int threads;

    private final WorkerThreads workerThreads;

    private final GracefulShutdown shutdown;

    private final String name;

    private final Intake intake;

    private final Object signal = new Object();

    private ExecutorService workers;

    private Handover handover;

    private Thread poller;

    private volatile boolean accepting;

    private boolean wakeRequested;

    /** The latest time a notice said attempts were due by, until a claim is made at or after it. */
    private Instant lookAgainAt;

    /**
     * Creates a lane.
     * @param store the execution history
     * @param runner runs claimed attempts
     * @param targets the jobs and handlers the lane's pool runs
     * @param limits the targets whose attempts are limited cluster-wide, and how
     * @param outcomes counts the outcomes of the attempts of targets whose limits adapt
     * @param liveNodes how many live nodes serve a group, which share the shards of its jobs' fires
     * @param shardsLetGo announces that a held fire of a job was let go
     * @param clock the clock
     * @param pollInterval how often to look for due attempts
     * @param threads how many attempts to run at once
     * @param workerThreads the kind of thread they run on
     * @param shutdown how stopping waits for running attempts
     * @param name the group whose pool it is, or empty for the shared pool; names its threads
     */
    QueueLane(
            ExecutionStore store,
            AttemptRunner runner,
            JobTargets targets,
            ConcurrencyLimits limits,
            LimitOutcomes outcomes,
            ToIntFunction<String> liveNodes,
            Consumer<String> shardsLetGo,
            Clock clock,
            Duration pollInterval,
            int threads,
            WorkerThreads workerThreads,
            GracefulShutdown shutdown,
            String name) {
        this.store = store;
        this.runner = runner;
        this.targets = targets;
        this.limits = limits;
        this.claims = new LaneClaims(
                store,
                runner.nodeId(),
                limits,
                outcomes,
                new ShardClaims(store, targets, runner.nodeId(), liveNodes, shardsLetGo),
                clock);
        this.clock = clock;
        this.pollInterval = pollInterval;
        this.threads = threads;
        this.workerThreads = workerThreads;
        this.shutdown = shutdown;
        shutdown.onQuiesce(this::quiesce);
        this.name = name;
        this.intake = new Intake(threads, pollInterval);
    }

    /**
     * Tells whether a target of the lane is a sharded job.
     * @param name the target
     * @return {@code true} if the lane runs it and it is sharded
     */
    boolean runsShards(String name) {
        return this.claims.sharded(name);
    }

    /** Makes the lane look for due attempts now rather than at its next poll. */
    void wakeUp() {
        synchronized (this.signal) {
            this.wakeRequested = true;
            this.signal.notifyAll();
        }
    }

    /** See {@link ExecutionQueue#wakeUp(Instant)}. */
    void wakeUp(Instant dueBy) {
        Instant now = this.clock.instant();
        synchronized (this.signal) {
            if (!dueBy.isAfter(now.plus(ExecutionQueue.NOTICE_LEAD_LIMIT))
                    && (this.lookAgainAt == null || dueBy.isAfter(this.lookAgainAt))) {
                this.lookAgainAt = dueBy;
            }
            this.wakeRequested = true;
            this.signal.notifyAll();
        }
    }

    void start() {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(
                this.threads,
                this.threads,
                0,
                TimeUnit.MILLISECONDS,
                new PriorityBlockingQueue<>(Math.max(1, 4 * this.threads), Handover.ORDER),
                this.workerThreads.factory(threadName("dsched-queue-")));
        this.workers = pool;
        this.handover = new Handover(
                pool,
                pool.getQueue(),
                this.intake,
                this.runner::hold,
                this.runner::letGo,
                this::putBack,
                (attempt) -> this.limits.limits(attempt.jobName()));
        this.accepting = true;
        this.poller = new Thread(this::poll, threadName("dsched-queue-poller"));
        this.poller.setDaemon(true);
        this.poller.start();
    }

    private void poll() {
        long nextPoll = System.nanoTime();
        while (this.accepting) {
            int claimed = 0;
            int free = this.intake.free();
            try {
                // while a backlog is held ready, a notice or a submission wakes no claim of one or two;
                // once a poll interval has passed without a claim, the node claims however few
                if (free > 0 && (System.nanoTime() - nextPoll >= 0 || !this.intake.holding())) {
                    nextPoll = System.nanoTime() + this.pollInterval.toNanos();
                    claimed = claimAndRun(free);
                }
            } catch (RuntimeException ex) {
                logger.warn("Could not look for due attempts: {}", ex.getMessage());
            }
            if (this.intake.waitsAfter(free, claimed)) {
                awaitNextPoll();
            }
        }
    }

    private int claimAndRun(int free) {
        Set<String> names = this.targets.names();
        if (names.isEmpty()) {
            return 0;
        }
        Instant now = this.clock.instant();
        this.intake.claiming(free);
        List<ExecutionRecord> attempts;
        try {
            attempts = this.claims.claim(names, now, free);
        } catch (RuntimeException ex) {
            this.intake.claimed(free, 0);
            throw ex;
        }
        // this claim took what a notice said was due by a time now past
        synchronized (this.signal) {
            if (this.lookAgainAt != null && !this.lookAgainAt.isAfter(now)) {
                this.lookAgainAt = null;
            }
        }
        this.intake.claimed(free, attempts.size());
        return this.handover.handOver(attempts, this::runClaimed);
    }

    private void runClaimed(ExecutionRecord attempt) {
        long start = System.nanoTime();
        try {
            this.runner.run(attempt);
            if (this.limits.limits(attempt.jobName())) {
                // its slot stays taken until its outcome is written (a limit set at run time on a handler
                // declared with a rate alone included): not behind the node's due fires
                this.store.outcomes().hurry();
            }
        } catch (RuntimeException ex) {
            logger.error("Attempt {} of '{}' could not be recorded", attempt.attempt(), attempt.jobName(), ex);
        } finally {
            if (this.intake.finished((System.nanoTime() - start) / 1e6)) {
                wakeUp();
            }
        }
    }

    private void putBack(ExecutionRecord attempt) {
        // as it was: due when it was due (its place among the due attempts, its fire lag), its reason;
        // the queue claims only waiting attempts, which all have a due time
        this.store.outcomes().defer(attempt, attempt.dueAt(), attempt.statusReason());
    }

    private void awaitNextPoll() {
        synchronized (this.signal) {
            if (!this.wakeRequested && this.accepting) {
                long wait = this.pollInterval.toMillis();
                Instant now = this.clock.instant();
                if (this.lookAgainAt != null && this.lookAgainAt.isAfter(now)) {
                    wait = Math.min(
                            wait, Duration.between(now, this.lookAgainAt).toMillis() + 1);
                }
                try {
                    this.signal.wait(wait);
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                    this.accepting = false;
                }
            }
            this.wakeRequested = false;
        }
    }

    private void quiesce() {
        this.accepting = false;
        wakeUp();
    }

    /**
     * Stops claiming, waits for a claim in flight to hand its attempts to the workers, and has the
     * workers take no more; {@link #awaitWorkers} then waits for them.
     */
    void beginStop() {
        quiesce();
        if (this.workers == null) {
            return;
        }
        try {
            // a claim in flight when the shutdown began hands its attempts to the workers first
            this.poller.join(Math.max(1, this.shutdown.remaining().toMillis()));
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        } finally {
            this.workers.shutdown();
        }
    }

    /**
     * Waits, as long as the shutdown lets it, for the attempts running on the workers, then gives
     * back what no worker started; a claim that outlives the wait gives back, as it ends, what the
     * stopped workers refuse ({@link #awaitPoller}).
     * @return whether every attempt ended in time
     */
    boolean awaitWorkers() {
        if (this.workers == null) {
            return true;
        }
        boolean finished = false;
        try {
            finished = this.workers.awaitTermination(this.shutdown.remaining().toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        } finally {
            // before this node leaves the cluster: what no worker started goes back to wait
            this.handover.giveBackWaiting();
        }
        return finished;
    }

    /**
     * Waits for the poller to end, so that a claim in flight gives back what it could not hand over.
     * @param deadline the {@link System#nanoTime} to wait until at most
     */
    void awaitPoller(long deadline) {
        if (this.poller == null) {
            return;
        }
        try {
            this.poller.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    /** A thread name of this lane: the prefix, then the group of its pool, if it is not shared. */
    private String threadName(String prefix) {
        if (this.name.isEmpty()) {
            return prefix;
        }
        return prefix.endsWith("-") ? prefix + this.name + "-" : prefix + "-" + this.name;
    }
}
