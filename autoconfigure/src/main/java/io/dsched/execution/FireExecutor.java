package io.dsched.execution;

import io.dsched.execution.AttemptRunner.Outcome;
import io.dsched.store.ExecutionRecord;
import io.dsched.store.ExecutionStore;
import io.dsched.store.TransientFailures;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs one fire of a scheduled job on this node: claims its first attempt, then hands it to the
 * {@link AttemptRunner}. A fire delivered twice is claimed once.
 */
public final class FireExecutor {

    private static final Logger logger = LoggerFactory.getLogger(FireExecutor.class);

    /**
     * How long to keep trying to claim a fire while the database is unreachable. A claim that
     * was written although its answer was lost is found by the membership's sweep of stale
     * attempts and run again.
     */
    private static final Duration CLAIM_PATIENCE = Duration.ofMinutes(1);

    private final ExecutionStore store;

    private final AttemptRunner runner;

    private final JobTargets targets;

    private final Runnable wakeQueue;

    private final Clock clock;

    private final ExecutionListener listener;

    /**
     * Creates an executor.
     * @param store the execution history
     * @param runner runs claimed attempts
     * @param targets the jobs this node declares
     * @param wakeQueue makes this node's queue look for due attempts at once
     * @param clock the clock
     * @param listener hears of fires not run on this node
     */
    public FireExecutor(
            ExecutionStore store,
            AttemptRunner runner,
            JobTargets targets,
            Runnable wakeQueue,
            Clock clock,
            ExecutionListener listener) {
        this.listener = listener;
        this.store = store;
        this.runner = runner;
        this.targets = targets;
        this.wakeQueue = wakeQueue;
        this.clock = clock;
    }

    /**
     * Runs a fire, unless another node already claimed it.
     * @param jobName the job
     * @param scheduledAt the time the fire was scheduled for
     * @return what became of the fire
     */
    public Outcome fire(String jobName, Instant scheduledAt) {
        Instant now = this.clock.instant();
        if (this.targets.find(jobName).isEmpty()) {
            // a newer deployment's job fired on this older node: queue the fire for a node that knows it
            logger.debug("Queueing '{}' scheduled at {} for a node that declares it", jobName, scheduledAt);
            this.store.claim(ExecutionRecord.waiting(
                    jobName,
                    scheduledAt,
                    1,
                    ExecutionRecord.idempotencyKey(jobName, scheduledAt),
                    ExecutionOrigin.SCHEDULE,
                    this.runner.nodeId(),
                    now,
                    now,
                    null,
                    "job is not declared on node " + this.runner.nodeId()));
            this.wakeQueue.run();
            this.listener.skipped(jobName, ExecutionListener.SkipReason.NOT_DECLARED);
            return Outcome.DEFERRED;
        }
        Optional<ExecutionRecord> claimed = TransientFailures.retry(
                "the claim of '" + jobName + "'",
                CLAIM_PATIENCE,
                () -> this.store.claim(ExecutionRecord.claim(jobName, scheduledAt, this.runner.nodeId(), now)));
        if (claimed.isEmpty()) {
            logger.debug("Not running '{}' scheduled at {}: already claimed", jobName, scheduledAt);
            this.listener.skipped(jobName, ExecutionListener.SkipReason.ALREADY_CLAIMED);
            return Outcome.ALREADY_CLAIMED;
        }
        return this.runner.run(claimed.get());
    }
}
