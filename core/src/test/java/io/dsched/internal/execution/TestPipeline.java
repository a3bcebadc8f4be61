package io.dsched.internal.execution;

import io.dsched.execution.ExecutionListener;
import io.dsched.internal.store.ExecutionStore;
import java.time.Clock;
import java.util.List;
import java.util.Random;

/** The pipeline's stages as the engine's unit tests build them: node {@code node-1}, no listener, no observer. */
public final class TestPipeline {

    private TestPipeline() {}

    /**
     * Builds the runner of claimed attempts.
     * @param targets the jobs it knows
     * @param store the history
     * @param guard the overlap guard
     * @param clock the clock
     * @param stops the stop requests it heeds
     * @return the runner; the test closes it
     */
    public static AttemptRunner runner(
            JobTargets targets, ExecutionStore store, JobGuard guard, Clock clock, StopRequests stops) {
        return new AttemptRunner(
                targets,
                store,
                guard,
                "node-1",
                clock,
                new Random(1),
                new ExecutionListener() {},
                AttemptObserver.NONE,
                stops);
    }

    /**
     * Builds the claim stage of fires over a runner.
     * @param store the history
     * @param runner runs what it claims
     * @param guard the overlap guard
     * @param targets the jobs it knows
     * @param wakeQueue what it wakes when it leaves an attempt to the queue
     * @param clock the clock
     * @return the stage
     */
    public static FireExecutor fires(
            ExecutionStore store,
            AttemptRunner runner,
            JobGuard guard,
            JobTargets targets,
            Runnable wakeQueue,
            Clock clock) {
        return new FireExecutor(
                store,
                runner,
                guard,
                targets,
                WorkerPools.shared(NodeGroups.defaultOnly(), 1),
                wakeQueue,
                (job) -> wakeQueue.run(),
                (job) -> List.of(),
                clock,
                new ExecutionListener() {});
    }
}
