package io.dsched.execution;

import io.dsched.definition.JobDefinition;
import io.dsched.definition.JobRegistry;
import io.dsched.store.ExecutionRecord;
import io.dsched.store.ExecutionStore;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Runs one fire of one job on this node: claims it, takes the job's guard, invokes the job and
 * records the outcome, in that order.
 */
public final class FireExecutor {

    private static final Logger logger = LoggerFactory.getLogger(FireExecutor.class);

    private final JobRegistry registry;

    private final ExecutionStore store;

    private final JobGuard guard;

    private final String nodeId;

    private final Clock clock;

    /**
     * Creates an executor.
     * @param registry the jobs this node declares
     * @param store the execution history
     * @param guard the overlap guard
     * @param nodeId this node's id
     * @param clock the clock
     */
    public FireExecutor(JobRegistry registry, ExecutionStore store, JobGuard guard, String nodeId, Clock clock) {
        this.registry = registry;
        this.store = store;
        this.guard = guard;
        this.nodeId = nodeId;
        this.clock = clock;
    }

    /**
     * Runs a fire, unless another node already claimed it.
     * @param jobName the job
     * @param scheduledAt the time the fire was scheduled for
     * @return what became of the fire
     */
    public FireOutcome fire(String jobName, Instant scheduledAt) {
        Optional<ExecutionRecord> claimed =
                this.store.claim(ExecutionRecord.claim(jobName, scheduledAt, 1, this.nodeId, this.clock.instant()));
        if (claimed.isEmpty()) {
            logger.debug("Not running '{}' scheduled at {}: already claimed", jobName, scheduledAt);
            return FireOutcome.ALREADY_CLAIMED;
        }
        ExecutionRecord claim = claimed.get();
        Optional<JobDefinition> job = this.registry.find(jobName);
        if (job.isEmpty()) {
            logger.warn(
                    "Skipping '{}' scheduled at {}: the job is not declared on node {}",
                    jobName,
                    scheduledAt,
                    this.nodeId);
            skip(claim, "job is not declared on node " + this.nodeId);
            return FireOutcome.SKIPPED;
        }
        Optional<SimpleLock> lock = this.guard.tryLock(job.get());
        if (lock.isEmpty()) {
            logger.debug("Not running '{}' scheduled at {}: a previous run still holds its lock", jobName, scheduledAt);
            skip(claim, "a previous run of the job still holds its lock");
            return FireOutcome.SKIPPED;
        }
        try {
            return run(job.get(), claim);
        } finally {
            lock.get().unlock();
        }
    }

    private FireOutcome run(JobDefinition job, ExecutionRecord claim) {
        Context context = new Context(claim);
        Instant startedAt = this.clock.instant();
        Throwable failure = null;
        try (MDC.MDCCloseable j = MDC.putCloseable("dsched.job", job.name());
                MDC.MDCCloseable e = MDC.putCloseable("dsched.execution", String.valueOf(claim.id()));
                MDC.MDCCloseable a = MDC.putCloseable("dsched.attempt", String.valueOf(claim.attempt()));
                MDC.MDCCloseable n = MDC.putCloseable("dsched.node", this.nodeId)) {
            try {
                job.invoker().invoke(context);
            } catch (Throwable ex) {
                failure = ex;
                logger.warn(
                        "Job '{}' scheduled at {} failed on attempt {}",
                        job.name(),
                        claim.scheduledAt(),
                        claim.attempt(),
                        ex);
            }
        }
        Instant finishedAt = this.clock.instant();
        ExecutionStatus status = (failure != null) ? ExecutionStatus.FAILED : ExecutionStatus.SUCCEEDED;
        this.store.finish(claim, status, startedAt, finishedAt, failure, null);
        if (failure instanceof VirtualMachineError error) {
            throw error;
        }
        return (failure != null) ? FireOutcome.FAILED : FireOutcome.SUCCEEDED;
    }

    private void skip(ExecutionRecord claim, String reason) {
        Instant now = this.clock.instant();
        this.store.finish(claim, ExecutionStatus.SKIPPED, now, now, null, reason);
    }

    /** What became of a fire on this node. */
    public enum FireOutcome {
        /** Another node, or an earlier delivery, had claimed it. */
        ALREADY_CLAIMED,
        /** Claimed and not run, with the reason recorded. */
        SKIPPED,
        /** Ran and succeeded. */
        SUCCEEDED,
        /** Ran and failed. */
        FAILED
    }

    private final class Context implements JobContext {

        private final ExecutionRecord claim;

        Context(ExecutionRecord claim) {
            this.claim = claim;
        }

        @Override
        public String jobName() {
            return this.claim.jobName();
        }

        @Override
        public Instant scheduledAt() {
            return this.claim.scheduledAt();
        }

        @Override
        public int attempt() {
            return this.claim.attempt();
        }

        @Override
        public String idempotencyKey() {
            return this.claim.idempotencyKey();
        }

        @Override
        public String nodeId() {
            return FireExecutor.this.nodeId;
        }

        @Override
        public long executionId() {
            return this.claim.id();
        }
    }
}
