package io.dsched.quartz;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.quartz.JobDetail;
import org.quartz.JobKey;
import org.quartz.JobPersistenceException;
import org.quartz.Trigger.CompletedExecutionInstruction;
import org.quartz.spi.OperableTrigger;

/**
 * Records fires complete in groups, on a thread of its own, so that a worker that ends a fire goes
 * on to the next at once instead of waiting for a transaction of its own (and its commit) that
 * unblocks the job's triggers and deletes the fire's record. Under load the groups grow by
 * themselves: each transaction takes every completion that came while the one before committed,
 * up to {@link #MOST}. A group begins once the node's fires that are due have started, or after the
 * {@link StartBacklog}'s bound, so that at a burst's due instant the database serves the starts
 * first. A fire whose job's row another transaction holds waits for a later group
 * ({@link #completeAll}), so that one held job holds up no other.
 *
 * <p>Until its group commits, a fire's record stays and its job's triggers stay blocked: the job's
 * next fire waits for it, as it waits for the fire to run. A node that dies meanwhile leaves both
 * to the cluster's recovery of its fires, as it does a fire still running: a job that requests
 * recovery runs again there, as with Quartz's own store when a node dies between a run's end and
 * its completion, for the longer time a group takes. A stop records what is waiting before the
 * store shuts down; a completion that comes after is recorded on its worker, as Quartz does.
 */
final class GroupedCompletions {

    /** The most completions one transaction records. */
    static final int MOST = 100;

    /** The most completions that wait for the node's due fires to start, beyond the group's first. */
    private static final int HOLD_AT_MOST = 4 * MOST;

    /** How long fires may wait to be recorded complete before a warning says so. */
    private static final long STALL_WARNING_MILLIS = 30_000;

    /** How often the thread looks whether it should stop, and tries again the fires it left. */
    private static final long PAUSE_MILLIS = 50;

    private final SkipLockedJobStore store;

    private final BlockingQueue<Completion> waiting = new LinkedBlockingQueue<>();

    private final Object lifecycle = new Object();

    /** The thread that records the groups, while it runs; guarded by {@link #lifecycle}. */
    private Thread thread;

    /**
     * Set once a stop began: completions are recorded on their workers; written under {@link
     * #lifecycle}, read without it by the thread as it waits for the node's due fires.
     */
    private volatile boolean stopped;

    /** Set once the store has shut down, or shuts down without writing: the thread ends without the rest. */
    private volatile boolean abandoned;

    /** The fires whose completion failed alone, warned of once each; the thread's own. */
    private final Set<Completion> failing = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());

    /** How long fires have been left for later; the thread's own. */
    private final Stall stall = new Stall();

    GroupedCompletions(SkipLockedJobStore store) {
        this.store = store;
    }

    /** A fire to record complete, as {@code JobStore.triggeredJobComplete} is told of it. */
    record Completion(OperableTrigger trigger, JobDetail job, CompletedExecutionInstruction instruction) {

        /** Whether recording it changes the job's triggers, under the job's row. */
        boolean changesTriggers() {
            return this.job.isConcurrentExecutionDisallowed()
                    || this.job.isPersistJobDataAfterExecution()
                    || this.instruction != CompletedExecutionInstruction.NOOP;
        }
    }

    /**
     * The order in which a group records its fires: its triggers' rows are changed in the order
     * in which a fire locks them.
     */
    private static final Comparator<Completion> BY_TRIGGER = Comparator.comparing(
                    (Completion completion) -> completion.trigger().getKey().getName())
            .thenComparing((completion) -> completion.trigger().getKey().getGroup());

    /**
     * Records a fire complete in the next group, or on this thread once stopped.
     * @param completion the fire
     */
    void add(Completion completion) {
        synchronized (this.lifecycle) {
            if (!this.stopped) {
                this.waiting.add(completion);
                if (this.thread == null) {
                    this.thread = start();
                }
                return;
            }
        }
        // as Quartz's worker does: until it commits, or the store has shut down
        List<Completion> left = List.of(completion);
        while (!left.isEmpty()) {
            List<Completion> these = left;
            left = this.store.untilCommitted((conn) -> completeHolding(conn, these));
            if (!left.isEmpty()) {
                pause();
            }
        }
    }

    /** Starts the thread, with nothing inherited from the worker that happens to need it first. */
    private Thread start() {
        Thread started =
                new Thread(null, this::run, "dsched-quartz-completions-" + this.store.getInstanceName(), 0, false);
        started.setDaemon(true);
        started.setContextClassLoader(GroupedCompletions.class.getClassLoader());
        started.start();
        return started;
    }

    /**
     * Whether to write a group without waiting for the node's due fires to start: stopping, or
     * more completions wait than a few groups take, which a node whose fires wait long for a worker
     * would otherwise record only a group per wait.
     */
    private boolean goOn() {
        return this.stopped || this.abandoned || this.waiting.size() >= HOLD_AT_MOST;
    }

    private void run() {
        List<Completion> group = new ArrayList<>(MOST);
        try {
            while (!this.abandoned) {
                if (group.isEmpty()) {
                    Completion first = this.waiting.poll(PAUSE_MILLIS, TimeUnit.MILLISECONDS);
                    if (first == null) {
                        if (stoppedAndDone()) {
                            return;
                        }
                        continue;
                    }
                    group.add(first);
                    // the fires that fell due with this one start first; their completions join it
                    this.store.backlog().awaitStarts(this::goOn);
                    if (this.abandoned) {
                        break;
                    }
                }
                // those left from the last group do not take the room of new ones
                this.waiting.drainTo(group, MOST);
                List<Completion> left = record(group);
                group.clear();
                group.addAll(left);
                if (!left.isEmpty()) {
                    // their jobs' rows are held, or they fail: the others went on meanwhile
                    this.stall.left(left.size());
                    pause();
                } else {
                    this.stall.none();
                }
            }
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        } finally {
            ended(group);
        }
    }

    /**
     * Records a group in one transaction; should that fail, each of its fires in a transaction of
     * its own, so that one whose completion fails holds up no other.
     * @return the fires left for a later group: their jobs' rows held, or their completion failed
     */
    private List<Completion> record(List<Completion> group) {
        group.sort(BY_TRIGGER);
        try {
            return this.store.inTransaction((conn) -> completeHolding(conn, group));
        } catch (JobPersistenceException | RuntimeException ex) {
            if (this.abandoned) {
                return List.of();
            }
        }
        List<Completion> left = new ArrayList<>();
        for (Completion completion : group) {
            try {
                left.addAll(this.store.inTransaction((conn) -> completeHolding(conn, List.of(completion))));
                this.failing.remove(completion);
            } catch (JobPersistenceException | RuntimeException ex) {
                left.add(completion);
                if (this.failing.add(completion)) {
                    this.store
                            .log()
                            .warn("Couldn't record the fire of "
                                    + completion.trigger().getKey() + " complete; trying again: " + ex.getMessage());
                }
            }
        }
        return left;
    }

    private boolean stoppedAndDone() {
        synchronized (this.lifecycle) {
            return this.stopped && this.waiting.isEmpty();
        }
    }

    /**
     * As the thread ends, however: a next completion starts another, unless stopped; what it leaves
     * is the cluster's recovery's.
     */
    private void ended(List<Completion> group) {
        int left;
        synchronized (this.lifecycle) {
            this.thread = null;
            left = group.size() + this.waiting.size();
            if (!this.stopped && !this.abandoned && left > 0) {
                this.thread = start();
                return;
            }
        }
        if (left > 0) {
            this.store
                    .log()
                    .warn(left + " fire(s) not recorded complete as the store stopped: the cluster's"
                            + " recovery of this node completes them");
        }
    }

    /**
     * Records fires complete in the caller's transaction, as Quartz does each, first taking the rows
     * of the jobs whose triggers their completion changes (those that disallow concurrent
     * execution or persist their data, and a trigger that fires no more or is set complete or in
     * error), in one statement, as a fire takes them, without waiting: a fire whose job's row
     * another transaction holds (a fire or a change of the job, or a session stalled mid-way) is
     * left for a later group, so that it holds up no other fire's completion.
     * @return those left for later
     */
    private List<Completion> completeHolding(Connection conn, List<Completion> group) throws JobPersistenceException {
        Set<JobKey> jobs = new TreeSet<>();
        for (Completion completion : group) {
            if (completion.changesTriggers()) {
                jobs.add(completion.job().getKey());
            }
        }
        Set<JobKey> held;
        try {
            held = jobs.isEmpty() ? Set.of() : this.store.locks().lockJobsNotHeld(conn, jobs);
        } catch (SQLException ex) {
            throw new JobPersistenceException("Couldn't lock jobs " + jobs + ": " + ex.getMessage(), ex);
        }
        List<Completion> later = new ArrayList<>();
        for (Completion completion : group) {
            if (held.contains(completion.job().getKey())) {
                later.add(completion);
            } else {
                this.store.complete(conn, completion);
            }
        }
        return later;
    }

    private static void pause() {
        try {
            Thread.sleep(PAUSE_MILLIS);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Records what waits, then takes no more: what comes later is recorded on its worker.
     * @param timeoutMillis how long to wait for the waiting groups to commit
     */
    void stop(long timeoutMillis) {
        Thread running;
        synchronized (this.lifecycle) {
            this.stopped = true;
            running = this.thread;
        }
        if (running != null) {
            try {
                running.join(Math.max(1, timeoutMillis));
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Takes no more and writes nothing more, without waiting: the store has shut down, or does so without writing. */
    void abandon() {
        // first: a thread that sees the stop as it waits for the node's due fires writes nothing
        this.abandoned = true;
        synchronized (this.lifecycle) {
            this.stopped = true;
        }
    }

    /** Warns once fires have been left for later for {@link #STALL_WARNING_MILLIS} on end. */
    private final class Stall {

        private long since;

        private boolean warned;

        void left(int fires) {
            long now = System.currentTimeMillis();
            if (this.since == 0) {
                this.since = now;
            } else if (!this.warned && now - this.since > STALL_WARNING_MILLIS) {
                this.warned = true;
                GroupedCompletions.this
                        .store
                        .log()
                        .warn(
                                fires + " fire(s) have waited more than "
                                        + STALL_WARNING_MILLIS / 1000
                                        + " s to be recorded complete: their jobs' rows are held by"
                                        + " other transactions, or their completion fails; their jobs fire again once they are");
            }
        }

        void none() {
            this.since = 0;
            this.warned = false;
        }
    }
}
