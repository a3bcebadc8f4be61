package io.dsched.internal.queue;

import io.dsched.execution.ExecutionRecord;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.LongConsumer;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands the attempts of one claim to the workers. Each is held (in flight on this node) before it is
 * handed over, so that the sweep of stale attempts does not take back one waiting for a worker.
 *
 * <p>When the node stops, an attempt claimed here that no worker started is given back: put back to
 * wait, due when it was due, for any node to claim (the write applies only while the attempt still
 * runs on this node), let go, and its place in the intake freed. That is the case of the attempts
 * held ready in the workers' queue when the shutdown timeout runs out, and of those of a claim still
 * in flight then, which the stopped workers refuse. Should putting one back fail, it and the rest
 * are taken over as the attempts of a dead node once this node has left the cluster.
 */
final class Handover {

    /**
     * The order in which the workers take the attempts held ready: those that hold a cluster-wide
     * slot or token from their claim first (a limited handler's), so that no node keeps them from
     * running while the rest of the cluster waits for them; then the higher priority, then in the
     * order they were handed over, so that an attempt of a high priority claimed behind a backlog of
     * low ones starts at the next free worker. Whether an attempt holds a slot is told once, as it
     * is handed over, not at each comparison the queue makes under its lock.
     */
    static final Comparator<Runnable> ORDER = Comparator.comparing(
                    (Runnable task) -> !(task instanceof Claimed claimed && claimed.holdsSlot))
            .thenComparing(Comparator.comparingInt(Handover::priority).reversed())
            .thenComparingLong(Handover::sequence);

    private static final AtomicLong SEQUENCE = new AtomicLong();

    private static final Logger logger = LoggerFactory.getLogger(Handover.class);

    private final Executor workers;

    private final Queue<Runnable> waiting;

    private final Intake intake;

    private final LongConsumer hold;

    private final LongConsumer letGo;

    private final Consumer<ExecutionRecord> putBack;

    private final Predicate<ExecutionRecord> holdsSlot;

    /**
     * Creates a handover.
     * @param workers run the attempts
     * @param waiting the workers' queue of tasks not yet started
     * @param intake counts the attempts claimed and not yet finished
     * @param hold marks an attempt as in flight on this node
     * @param letGo marks it as no longer in flight
     * @param putBack makes an attempt this node will not run wait again, for any node to claim
     * @param holdsSlot whether an attempt holds a cluster-wide slot or token from its claim (a
     *     limited handler's), which puts it first in the workers' queue ({@link #ORDER})
     */
    Handover(
            Executor workers,
            Queue<Runnable> waiting,
            Intake intake,
            LongConsumer hold,
            LongConsumer letGo,
            Consumer<ExecutionRecord> putBack,
            Predicate<ExecutionRecord> holdsSlot) {
        this.holdsSlot = holdsSlot;
        this.workers = workers;
        this.waiting = waiting;
        this.intake = intake;
        this.hold = hold;
        this.letGo = letGo;
        this.putBack = putBack;
    }

    /**
     * Hands claimed attempts to the workers, which run each with {@code run}.
     * @param attempts the attempts, claimed by this node and counted by the intake
     * @param run what a worker does with one
     * @return how many the workers took
     */
    int handOver(List<ExecutionRecord> attempts, Consumer<ExecutionRecord> run) {
        for (int i = 0; i < attempts.size(); i++) {
            ExecutionRecord attempt = attempts.get(i);
            this.hold.accept(attempt.id());
            try {
                this.workers.execute(new Claimed(attempt, run, this.holdsSlot.test(attempt)));
            } catch (RejectedExecutionException ex) {
                giveBack(attempts.subList(i, attempts.size()));
                return i;
            }
        }
        return attempts.size();
    }

    /**
     * Gives back the attempts waiting in the workers' queue that no worker has started, once the
     * workers are shut down.
     * @return how many were given back
     */
    int giveBackWaiting() {
        List<ExecutionRecord> unstarted = new ArrayList<>();
        Runnable task;
        while ((task = this.waiting.poll()) != null) {
            if (task instanceof Claimed claimed) {
                unstarted.add(claimed.attempt);
            }
        }
        giveBack(unstarted);
        return unstarted.size();
    }

    private void giveBack(List<ExecutionRecord> attempts) {
        if (attempts.isEmpty()) {
            return;
        }
        logger.warn("The workers have stopped: {} claimed attempts no worker started go back to wait", attempts.size());
        boolean reachable = true;
        for (int i = 0; i < attempts.size(); i++) {
            ExecutionRecord attempt = attempts.get(i);
            try {
                // once a write has failed, the others would wait on the database in turn: the node
                // stops, and they are taken over once it has left
                if (reachable) {
                    this.putBack.accept(attempt);
                }
            } catch (RuntimeException ex) {
                reachable = false;
                logger.warn(
                        "Could not put back attempt {} of '{}'; it and the {} after it are taken over once this"
                                + " node has left: {}",
                        attempt.attempt(),
                        attempt.jobName(),
                        attempts.size() - i - 1,
                        ex.getMessage());
            } finally {
                this.letGo.accept(attempt.id());
            }
        }
        this.intake.dropped(attempts.size());
    }

    private static int priority(Runnable task) {
        return (task instanceof Claimed claimed) ? claimed.attempt.priority() : 0;
    }

    private static long sequence(Runnable task) {
        return (task instanceof Claimed claimed) ? claimed.sequence : Long.MAX_VALUE;
    }

    /** A claimed attempt on its way to a worker. */
    private static final class Claimed implements Runnable {

        private final ExecutionRecord attempt;

        private final Consumer<ExecutionRecord> run;

        private final boolean holdsSlot;

        private final long sequence = SEQUENCE.getAndIncrement();

        Claimed(ExecutionRecord attempt, Consumer<ExecutionRecord> run, boolean holdsSlot) {
            this.attempt = attempt;
            this.run = run;
            this.holdsSlot = holdsSlot;
        }

        @Override
        public void run() {
            this.run.accept(this.attempt);
        }
    }
}
