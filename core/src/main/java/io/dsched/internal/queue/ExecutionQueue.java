package io.dsched.internal.queue;

import io.dsched.execution.ExecutionRecord;
import io.dsched.internal.engine.DschedPhases;
import io.dsched.internal.engine.GracefulShutdown;
import io.dsched.internal.engine.WorkerThreads;
import io.dsched.internal.execution.AttemptRunner;
import io.dsched.internal.execution.JobTargets;
import io.dsched.internal.store.ExecutionStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Claims waiting attempts that have fallen due and runs them on this node's workers. Each
 * attempt is claimed by a fenced update, so only one node runs it; a node claims only attempts of
 * the jobs and handlers it declares, and no more than it has free workers for, plus, while its
 * attempts are short, some held ready so that no worker waits for the next claim ({@link Intake}).
 * Long attempts are never claimed ahead: they spread over the nodes instead of queueing on one.
 */
public final class ExecutionQueue implements SmartLifecycle {

    private static final Logger logger = LoggerFactory.getLogger(ExecutionQueue.class);

    /** How long a claim in flight at the end of the shutdown wait has to give its attempts back. */
    private static final Duration HAND_BACK = Duration.ofSeconds(5);

    /**
     * How far ahead of this node's clock a notice's time may be and still make the queue look
     * again then: more than two nodes' estimates of the database's clock differ by.
     */
    static final Duration NOTICE_LEAD_LIMIT = Duration.ofSeconds(1);

    private final ExecutionStore store;

    private final AttemptRunner runner;

    private final JobTargets targets;

    private final Clock clock;

    private final Duration pollInterval;

    private final int threads;

    private final WorkerThreads workerThreads;

    private final GracefulShutdown shutdown;

    private final boolean runJobs;

    private final Intake intake;

    private final Object signal = new Object();

    private ExecutorService workers;

    private Handover handover;

    private Thread poller;

    private volatile boolean running;

    private volatile boolean accepting;

    private boolean wakeRequested;

    /** The latest time a notice said attempts were due by, until a claim is made at or after it. */
    private Instant lookAgainAt;

    /**
     * Creates a queue.
     * @param store the execution history
     * @param runner runs claimed attempts
     * @param targets the jobs and handlers this node can run
     * @param clock the clock
     * @param pollInterval how often to look for due attempts
     * @param threads how many attempts to run at once
     * @param workerThreads the kind of thread they run on
     * @param shutdown how stopping waits for running attempts
     * @param runJobs whether this node runs attempts; when not, the queue never starts
     */
    public ExecutionQueue(
            ExecutionStore store,
            AttemptRunner runner,
            JobTargets targets,
            Clock clock,
            Duration pollInterval,
            int threads,
            WorkerThreads workerThreads,
            GracefulShutdown shutdown,
            boolean runJobs) {
        this.store = store;
        this.runner = runner;
        this.targets = targets;
        this.clock = clock;
        this.pollInterval = pollInterval;
        this.threads = threads;
        this.workerThreads = workerThreads;
        this.shutdown = shutdown;
        shutdown.onQuiesce(this::quiesce);
        this.runJobs = runJobs;
        this.intake = new Intake(threads, pollInterval);
    }

    /** Makes the queue look for due attempts now rather than at its next poll. */
    public void wakeUp() {
        synchronized (this.signal) {
            this.wakeRequested = true;
            this.signal.notifyAll();
        }
    }

    /**
     * Makes the queue look for due attempts now, and again at the time another node's notice gave
     * until a claim has looked at that time by this node's clock. The sender stamped it by its own
     * estimate of the database's clock, which may run ahead of this node's by the error of the two
     * estimates, and this node's estimate may step back when it is measured again: an attempt it
     * submitted as due now may not be due yet here when the claim runs, and that claim would find
     * nothing until the next poll. This node claims by its own clock alone, so nothing starts early;
     * a time more than {@link #NOTICE_LEAD_LIMIT} ahead is not trusted, and only wakes the queue now.
     * @param dueBy the time the notice was sent, by its sender's estimate of the database's clock
     */
    public void wakeUp(Instant dueBy) {
        Instant now = this.clock.instant();
        synchronized (this.signal) {
            if (!dueBy.isAfter(now.plus(NOTICE_LEAD_LIMIT))
                    && (this.lookAgainAt == null || dueBy.isAfter(this.lookAgainAt))) {
                this.lookAgainAt = dueBy;
            }
            this.wakeRequested = true;
            this.signal.notifyAll();
        }
    }

    @Override
    public void start() {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(
                this.threads,
                this.threads,
                0,
                TimeUnit.MILLISECONDS,
                new LinkedBlockingQueue<>(),
                this.workerThreads.factory("dsched-queue-"));
        this.workers = pool;
        this.handover =
                new Handover(pool, pool.getQueue(), this.intake, this.runner::hold, this.runner::letGo, this::putBack);
        this.running = true;
        this.accepting = true;
        this.poller = new Thread(this::poll, "dsched-queue-poller");
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
            attempts = this.store.claims().claimDue(this.runner.nodeId(), now, free, names);
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

    @Override
    public void stop() {
        quiesce();
        if (this.workers == null) {
            return;
        }
        boolean finished = false;
        try {
            // a claim in flight when the shutdown began hands its attempts to the workers first
            this.poller.join(Math.max(1, this.shutdown.remaining().toMillis()));
            this.workers.shutdown();
            finished = this.workers.awaitTermination(this.shutdown.remaining().toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        } finally {
            this.workers.shutdown();
            // before this node leaves the cluster: what no worker started goes back to wait, and a
            // claim that outlived the wait gives back what the stopped workers refuse
            this.handover.giveBackWaiting();
            awaitPoller();
            this.running = false;
        }
        if (!finished) {
            logger.warn("Stopping with attempts still running after the shutdown timeout; another node takes"
                    + " them over");
        }
    }

    private void awaitPoller() {
        try {
            this.poller.join(HAND_BACK.toMillis());
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public boolean isAutoStartup() {
        return this.runJobs;
    }

    @Override
    public boolean isRunning() {
        return this.running;
    }

    @Override
    public int getPhase() {
        return DschedPhases.ENGINE;
    }
}
