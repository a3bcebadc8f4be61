package io.dsched.internal.queue;

import io.dsched.internal.engine.DschedPhases;
import io.dsched.internal.engine.GracefulShutdown;
import io.dsched.internal.engine.WorkerThreads;
import io.dsched.internal.execution.AttemptRunner;
import io.dsched.internal.execution.ConcurrencyLimits;
import io.dsched.internal.execution.WorkerPools;
import io.dsched.internal.store.ExecutionStore;
import io.dsched.internal.store.LimitOutcomes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.ToIntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Claims waiting attempts that have fallen due and runs them on this node's workers. Each
 * attempt is claimed by a fenced update, so only one node runs it; a node claims only attempts of
 * the jobs and handlers it runs, and no more than it has free workers for, plus, while its
 * attempts are short, some held ready so that no worker waits for the next claim ({@link Intake}).
 * Long attempts are never claimed ahead: they spread over the nodes instead of queueing on one.
 *
 * <p>Each worker pool of the node ({@link WorkerPools}) claims and runs its own targets' attempts
 * in a {@link QueueLane} of its own: a pool whose workers are all busy claims nothing, and the
 * others go on claiming.
 */
public final class ExecutionQueue implements SmartLifecycle {

    private static final Logger logger = LoggerFactory.getLogger(ExecutionQueue.class);

    /**
     * How far ahead of this node's clock a notice's time may be and still make the queue look
     * again then: more than two nodes' estimates of the database's clock differ by.
     */
    static final Duration NOTICE_LEAD_LIMIT = Duration.ofSeconds(1);

    /** How long a claim in flight at the end of the shutdown wait has to give its attempts back. */
    private static final Duration HAND_BACK = Duration.ofSeconds(5);

    private final List<QueueLane> lanes;

    private final boolean runJobs;

    private volatile boolean running;

    /**
     * Creates a queue of the node's worker pools.
     * @param store the execution history
     * @param runner runs claimed attempts
     * @param pools the node's worker pools, each with the targets it runs
     * @param limits the targets whose attempts are limited cluster-wide, and how
     * @param outcomes counts the outcomes of the attempts of targets whose limits adapt
     * @param liveNodes how many live nodes serve a group, which share the shards of its jobs' fires
     * @param shardsLetGo announces that a held fire of a job was let go, its shards due: wakes the
     *     queue of every node that runs the job, where notices reach them
     * @param clock the clock
     * @param pollInterval how often to look for due attempts
     * @param workerThreads the kind of thread they run on
     * @param shutdown how stopping waits for running attempts
     * @param runJobs whether this node runs attempts; when not, the queue never starts
     */
    public ExecutionQueue(
            ExecutionStore store,
            AttemptRunner runner,
            List<WorkerPools.Pool> pools,
            ConcurrencyLimits limits,
            LimitOutcomes outcomes,
            ToIntFunction<String> liveNodes,
            Consumer<String> shardsLetGo,
            Clock clock,
            Duration pollInterval,
            WorkerThreads workerThreads,
            GracefulShutdown shutdown,
            boolean runJobs) {
        this.lanes = pools.stream()
                .map((pool) -> new QueueLane(
                        store,
                        runner,
                        pool.targets(),
                        limits,
                        outcomes,
                        liveNodes,
                        shardsLetGo,
                        clock,
                        pollInterval,
                        pool.threads(),
                        workerThreads,
                        shutdown,
                        pool.name()))
                .toList();
        this.runJobs = runJobs;
        // a limited target's slot came free, or a shard ended (which may let the next fire go):
        // claim the next attempt now, not at the next poll
        runner.whenOutcomeWritten((name) -> {
            if (limits.maxConcurrent(name) > 0 || this.lanes.stream().anyMatch((lane) -> lane.runsShards(name))) {
                wakeUp();
            }
        });
    }

    /** Makes the queue look for due attempts now rather than at its next poll. */
    public void wakeUp() {
        for (QueueLane lane : this.lanes) {
            lane.wakeUp();
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
        for (QueueLane lane : this.lanes) {
            lane.wakeUp(dueBy);
        }
    }

    @Override
    public void start() {
        for (QueueLane lane : this.lanes) {
            lane.start();
        }
        this.running = true;
    }

    @Override
    public void stop() {
        // every pool stops claiming and taking work before any waits for its running attempts
        for (QueueLane lane : this.lanes) {
            lane.beginStop();
        }
        boolean finished = true;
        for (QueueLane lane : this.lanes) {
            finished &= lane.awaitWorkers();
        }
        long deadline = System.nanoTime() + HAND_BACK.toNanos();
        for (QueueLane lane : this.lanes) {
            lane.awaitPoller(deadline);
        }
        this.running = false;
        if (!finished) {
            logger.warn("Stopping with attempts still running after the shutdown timeout; another node takes"
                    + " them over");
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
