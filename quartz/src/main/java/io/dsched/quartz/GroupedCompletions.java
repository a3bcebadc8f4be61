package io.dsched.quartz;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.quartz.JobDetail;
import org.quartz.Trigger.CompletedExecutionInstruction;
import org.quartz.spi.OperableTrigger;

/**
 * Records fires complete in groups, on a thread of its own, so that a worker that ends a fire goes
 * on to the next at once instead of waiting for a transaction of its own (and its commit) that
 * unblocks the job's triggers and deletes the fire's record. Under load the groups grow by
 * themselves: each transaction takes every completion that came while the one before committed,
 * up to {@link #MOST}.
 *
 * <p>Until its group commits, a fire's record stays and its job's triggers stay blocked: the job's
 * next fire waits for it, as it waits for the fire to run; a node that dies meanwhile leaves both
 * to the cluster's recovery of its fires, as it does for a fire still running. A stop records what
 * is waiting before the store shuts down; a completion that comes after is recorded on its worker,
 * as Quartz does.
 */
final class GroupedCompletions {

    /** The most completions one transaction records. */
    static final int MOST = 100;

    private static final long STOP_CHECK_MILLIS = 250;

    private final SkipLockedJobStore store;

    private final BlockingQueue<Completion> waiting = new LinkedBlockingQueue<>();

    private final Object lifecycle = new Object();

    private Thread thread;

    private boolean stopped;

    GroupedCompletions(SkipLockedJobStore store) {
        this.store = store;
    }

    /** A fire to record complete, as {@code JobStore.triggeredJobComplete} is told of it. */
    record Completion(OperableTrigger trigger, JobDetail job, CompletedExecutionInstruction instruction) {}

    /**
     * Records a fire complete in the next group, or at once once stopped.
     * @param completion the fire
     */
    void add(Completion completion) {
        synchronized (this.lifecycle) {
            if (!this.stopped) {
                if (this.thread == null) {
                    this.thread = new Thread(this::run, "dsched-quartz-completions");
                    this.thread.setDaemon(true);
                    this.thread.start();
                }
                this.waiting.add(completion);
                return;
            }
        }
        this.store.completeAll(List.of(completion));
    }

    private void run() {
        List<Completion> group = new ArrayList<>(MOST);
        while (true) {
            try {
                Completion first = this.waiting.poll(STOP_CHECK_MILLIS, TimeUnit.MILLISECONDS);
                if (first == null) {
                    synchronized (this.lifecycle) {
                        if (this.stopped && this.waiting.isEmpty()) {
                            return;
                        }
                    }
                    continue;
                }
                group.add(first);
                this.waiting.drainTo(group, MOST - 1);
                this.store.completeAll(group);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                return;
            } catch (RuntimeException ex) {
                // the store retries until it shuts down; then the cluster's recovery completes them
                this.store.log().warn("Couldn't record " + group.size() + " fire(s) complete: " + ex.getMessage());
            }
            group.clear();
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
                running.join(timeoutMillis);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
