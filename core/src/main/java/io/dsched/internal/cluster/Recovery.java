package io.dsched.internal.cluster;

import io.dsched.execution.ExecutionOrigin;
import io.dsched.execution.ExecutionRecord;
import io.dsched.internal.execution.JobTarget;
import io.dsched.internal.store.DeadLetter;
import io.dsched.internal.store.DeadLetterStatus;
import io.dsched.internal.store.ExecutionStore;
import java.time.Instant;

/**
 * What takes the place of an attempt whose node was lost: an attempt that re-runs it once, as a
 * recovery, or a dead letter when the attempt lost was itself the last recovery its retry policy
 * allows, so that a job that kills its node is not run again forever.
 */
final class Recovery {

    private Recovery() {}

    /**
     * The attempt that re-runs an orphan on this node, or {@code null} when it is dead-lettered.
     * @param orphan the running attempt whose node was lost
     * @param target its job on this node, or {@code null} if this node does not declare it
     */
    static ExecutionRecord rerunOf(
            ExecutionRecord orphan, JobTarget target, String nodeId, Instant now, String reason) {
        boolean lostTwice = orphan.origin() == ExecutionOrigin.RECOVERY
                && target != null
                && orphan.attempt() >= target.retry().maxAttempts();
        if (lostTwice) {
            return null;
        }
        // an attempt its lost node claimed ahead of its fire's time, to start then, waits for it
        Instant due = (orphan.startedAt() != null && orphan.startedAt().isAfter(now)) ? orphan.startedAt() : now;
        return orphan.next(
                ExecutionOrigin.RECOVERY, nodeId, now, due, "recovery of attempt " + orphan.attempt() + ": " + reason);
    }

    /** The dead letter of an orphan that is not re-run. */
    static DeadLetter letterOf(ExecutionRecord orphan, String reason, Instant failedAt) {
        return new DeadLetter(
                null,
                orphan.jobName(),
                orphan.scheduledAt(),
                orphan.idempotencyKey(),
                orphan.attempt(),
                orphan.id(),
                ExecutionStore.NodeLostException.class.getName(),
                reason,
                null,
                orphan.payload(),
                failedAt,
                failedAt,
                orphan.nodeId(),
                DeadLetterStatus.OPEN,
                null,
                null,
                null);
    }
}
