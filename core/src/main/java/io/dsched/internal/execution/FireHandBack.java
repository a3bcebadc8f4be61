package io.dsched.internal.execution;

import io.dsched.execution.ExecutionListener;
import io.dsched.execution.ExecutionOrigin;
import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.ExecutionStatus;
import io.dsched.execution.Outcome;
import io.dsched.internal.store.ExecutionStore;
import io.dsched.internal.store.TransientFailures;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The fires that reach a worker of this node but do not run on it, handed back to the queue of
 * waiting attempts for any node: those of a stopping node, those whose pool's workers were all busy,
 * and those of jobs this node does not run.
 */
final class FireHandBack {

    private static final Logger logger = LoggerFactory.getLogger(FireHandBack.class);

    /**
     * How long a stopping node keeps trying to leave a fire to the others while the database is
     * unreachable: the shutdown should not wait on an outage for long.
     */
    private static final Duration LEAVE_PATIENCE = Duration.ofSeconds(10);

    /** How many due attempts of a job to look at for the first attempt of an earlier fire. */
    private static final int EARLIER_LOOKS_AT = 5;

    private final ExecutionStore store;

    private final AttemptRunner runner;

    private final WorkerPools pools;

    private final Runnable wakeQueue;

    private final Clock clock;

    private final ExecutionListener listener;

    FireHandBack(
            ExecutionStore store,
            AttemptRunner runner,
            WorkerPools pools,
            Runnable wakeQueue,
            Clock clock,
            ExecutionListener listener) {
        this.store = store;
        this.runner = runner;
        this.pools = pools;
        this.wakeQueue = wakeQueue;
        this.clock = clock;
        this.listener = listener;
    }

    /**
     * Leaves a fire that reached a worker after this node stopped taking work, or that was fired
     * ahead and will reach no worker here, to any node: its first attempt waits, due at its time
     * or at once if that has passed, whether it was claimed in the fire's transaction (then it
     * is put back, and the guard taken with it let go) or not yet (then it is queued). It never
     * ran, so it counts as no failure. The write is tried again while the database fails
     * transiently, for a while; should it fail for good, a claimed attempt is taken over once this
     * node stops checking in, as a running one would be, and an unclaimed fire is lost, which is
     * logged as an error with its key.
     * @param jobName the job
     * @param scheduledAt the time the fire was scheduled for
     * @param claimedAhead the attempt claimed in the fire's transaction, or {@code null}
     */
    void leave(String jobName, Instant scheduledAt, Attempt claimedAhead) {
        boolean left = handBack(
                jobName,
                scheduledAt,
                claimedAhead,
                "node " + this.runner.nodeId() + " stopped before it ran the fire",
                "left to the other nodes",
                LEAVE_PATIENCE);
        if (left) {
            logger.info("Left '{}' scheduled at {} to any node: this node is stopping", jobName, scheduledAt);
        }
    }

    /**
     * Hands a fire whose pool's workers on this node were all busy to the queue: its first attempt
     * waits, due at its time or at once, for a free worker of its group on any node, whether it was
     * claimed in the fire's transaction (then it is put back, and a guard taken with it let go) or
     * not yet (then it is queued). It counts as no failure. While an earlier attempt of the job,
     * due already, still waits, the fire is recorded skipped instead, as the misfire policy
     * {@code RUN_ONCE} would have it: the attempt that waits runs for both, and a job that fires
     * often while its group is busy queues one attempt, not one per fire.
     * @param jobName the job
     * @param scheduledAt the time the fire was scheduled for
     * @param claimedAhead the attempt claimed in the fire's transaction, or {@code null}
     * @param group the job's group
     * @return what became of the fire
     */
    Outcome waitForWorker(String jobName, Instant scheduledAt, Attempt claimedAhead, String group) {
        String pool = this.pools.poolOf(group).equals(WorkerPools.SHARED)
                ? "the shared workers of node " + this.runner.nodeId()
                : "the workers of group '" + group + "' on node " + this.runner.nodeId();
        if (earlierFireWaits(jobName)) {
            return skipBehindEarlier(jobName, scheduledAt, claimedAhead, pool);
        }
        boolean queued = handBack(
                jobName,
                scheduledAt,
                claimedAhead,
                "waiting for a free worker of group '" + group + "': " + pool + " were busy",
                "queued for a free worker",
                FireExecutor.CLAIM_PATIENCE);
        if (!queued) {
            return Outcome.LOST;
        }
        logger.debug("Queued '{}' scheduled at {} for a free worker of group '{}'", jobName, scheduledAt, group);
        this.listener.skipped(jobName, ExecutionListener.SkipReason.NO_FREE_WORKER);
        return Outcome.DEFERRED;
    }

    /**
     * Whether the first attempt of an earlier fire of the job waits, due already: not a retry, a run
     * by hand or a replay. Should the database not answer, the fire is handed back as if none did.
     */
    private boolean earlierFireWaits(String jobName) {
        try {
            return this.store.claims().findDue(this.clock.instant(), EARLIER_LOOKS_AT, List.of(jobName)).stream()
                    .anyMatch((waiting) -> waiting.origin() == ExecutionOrigin.SCHEDULE && waiting.attempt() == 1);
        } catch (RuntimeException ex) {
            logger.debug("Could not look for a waiting fire of '{}': {}", jobName, ex.getMessage());
            return false;
        }
    }

    /** Records a fire skipped, as an earlier attempt of its job still waits for a free worker. */
    private Outcome skipBehindEarlier(String jobName, Instant scheduledAt, Attempt claimedAhead, String pool) {
        String reason = "skipped: " + pool + " were busy, and an earlier attempt of the job still waited for one";
        Instant now = this.clock.instant();
        try {
            Optional<ExecutionRecord> claim = (claimedAhead != null)
                    ? Optional.of(claimedAhead.claim())
                    : TransientFailures.retry(
                            "the record of the fire of '" + jobName + "' skipped",
                            FireExecutor.CLAIM_PATIENCE,
                            () -> this.store
                                    .inserts()
                                    .claim(ExecutionRecord.claim(jobName, scheduledAt, this.runner.nodeId(), now)));
            if (claim.isEmpty()) {
                return Outcome.ALREADY_CLAIMED;
            }
            TransientFailures.retry("the fire of '" + jobName + "' skipped", FireExecutor.CLAIM_PATIENCE, () -> {
                this.store.outcomes().finish(claim.get(), ExecutionStatus.SKIPPED, now, now, null, reason);
                return null;
            });
        } catch (RuntimeException ex) {
            // a claim written and not finished is taken over by the sweep of stale attempts, and re-run
            logger.warn("Could not record '{}' scheduled at {} skipped: {}", jobName, scheduledAt, ex.getMessage());
            return Outcome.LOST;
        } finally {
            if (claimedAhead != null) {
                if (claimedAhead.guardTakenWithClaim() != null) {
                    claimedAhead.guardTakenWithClaim().unlock();
                }
                this.runner.letGo(claimedAhead.claim().id());
            }
        }
        logger.debug(
                "Skipped '{}' scheduled at {}: an earlier attempt still waits for a free worker", jobName, scheduledAt);
        this.listener.skipped(jobName, ExecutionListener.SkipReason.NO_FREE_WORKER);
        return Outcome.SKIPPED;
    }

    /**
     * Writes a fire that does not run on this worker as waiting, for the queue of any node: see
     * {@link #leave}. A claim ahead is let go before the queue is woken, which may claim it again.
     * @return whether it was written, {@code false} if it was claimed or stopped meanwhile, or the
     *     write failed for good
     */
    private boolean handBack(
            String jobName, Instant scheduledAt, Attempt claimedAhead, String reason, String what, Duration patience) {
        Instant due = notBefore(scheduledAt);
        if (claimedAhead != null && claimedAhead.guardTakenWithClaim() != null) {
            claimedAhead.guardTakenWithClaim().unlock();
        }
        boolean left = false;
        try {
            left = TransientFailures.retry(
                    "the fire of '" + jobName + "' " + what,
                    patience,
                    () -> (claimedAhead == null)
                            ? queue(jobName, scheduledAt, due, reason)
                            : this.store.outcomes().defer(claimedAhead.claim(), due, reason));
        } catch (RuntimeException ex) {
            if (claimedAhead == null) {
                logger.error(
                        "Could not leave '{}' scheduled at {} (key {}) to the other nodes, and it did not run: {}",
                        jobName,
                        scheduledAt,
                        ExecutionRecord.idempotencyKey(jobName, scheduledAt),
                        ex.getMessage());
            } else {
                logger.warn(
                        "Could not leave '{}' scheduled at {} to the other nodes ({}); the cluster's sweep of"
                                + " stale attempts takes it over",
                        jobName,
                        scheduledAt,
                        ex.getMessage());
            }
        } finally {
            if (claimedAhead != null) {
                this.runner.letGo(claimedAhead.claim().id());
            }
        }
        if (left) {
            this.wakeQueue.run();
        } else {
            logger.debug("'{}' scheduled at {} was claimed or stopped meanwhile", jobName, scheduledAt);
        }
        return left;
    }

    /**
     * Writes a fire's first attempt as waiting, due at once, for the queue of any node to claim.
     * @return {@code false} if the fire has an attempt already
     */
    boolean queue(String jobName, Instant scheduledAt, Instant dueAt, String reason) {
        return this.store
                .inserts()
                .claim(ClaimsInTransaction.waiting(
                        jobName, scheduledAt, this.runner.nodeId(), this.clock.instant(), dueAt, reason))
                .isPresent();
    }

    /** The fire's time, or now if that has passed. */
    private Instant notBefore(Instant scheduledAt) {
        Instant now = this.clock.instant();
        return scheduledAt.isAfter(now) ? scheduledAt : now;
    }
}
