package io.dsched.quartz;

import java.sql.SQLException;
import java.util.ArrayList;
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
 * up to {@link #MOST}. A fire whose job's row another transaction holds waits for a later group
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

    /** How often the thread looks whether it should stop, and tries again the fires it left. */
    private static final long PAUSE_MILLIS = 50;

    private final SkipLockedJobStore store;

    private final BlockingQueue<Completion> waiting = new LinkedBlockingQueue<>();

    private final Object lifecycle = new Object();

    /** The thread that records the groups, while it runs; guarded by {@link #lifecycle}. */
    private Thread thread;

    /** Set once a stop began: completions are recorded on their workers; guarded by {@link #lifecycle}. */
    private boolean stopped;

    /** Set when the store shuts down without writing: the thread ends without the rest. */
    private volatile boolean abandoned;

    GroupedCompletions(SkipLockedJobStore store) {
        this.store = store;
    }

    /** A fire to record complete, as {@code JobStore.triggeredJobComplete} is told of it. */
    record Completion(OperableTrigger trigger, JobDetail job, CompletedExecutionInstruction instruction) {}

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
        List<Completion> left = List.of(completion);
        while (!left.isEmpty()) {
            left = completeAll(left);
            pause();
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
                }
                this.waiting.drainTo(group, MOST - group.size());
                List<Completion> left = record(group);
                group.clear();
                group.addAll(left);
                if (!left.isEmpty()) {
                    // their jobs' rows are held: the others go on meanwhile
                    pause();
                }
            }
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        } finally {
            ended(group);
        }
    }

    private List<Completion> record(List<Completion> group) {
        try {
            return completeAll(group);
        } catch (RuntimeException ex) {
            // the store retries until it shuts down; then the cluster's recovery completes them
            this.store.log().warn("Couldn't record " + group.size() + " fire(s) complete: " + ex.getMessage());
            return List.of();
        }
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
     * Records fires complete in one transaction, as Quartz does each, holding the rows of all their
     * jobs, taken first in one statement (as a fire takes them) without waiting: a fire whose job's
     * row another transaction holds (a fire or a change of the job, or a session stalled mid-way)
     * is left for a later group, so that it holds up no other fire's completion.
     * @param group the fires
     * @return those left for later
     */
    List<Completion> completeAll(List<Completion> group) {
        return this.store.untilCommitted((conn) -> {
            Set<JobKey> jobs = new TreeSet<>();
            group.forEach((completion) -> jobs.add(completion.job().getKey()));
            Set<JobKey> held;
            try {
                held = this.store.locks().lockJobsNotHeld(conn, jobs);
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
        });
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

    /** Takes no more and writes nothing more, without waiting: the store shut down without writing. */
    void abandon() {
        synchronized (this.lifecycle) {
            this.stopped = true;
        }
        this.abandoned = true;
    }
}
