package io.dsched.internal.execution;

import io.dsched.execution.ExecutionRecord;
import java.util.Optional;
import net.javacrumbs.shedlock.core.SimpleLock;

/**
 * One claimed attempt on its way through this node's pipeline: claim, admit, invoke, decide,
 * record, report. It carries forward what an earlier stage found, so that no stage looks it up
 * again or calls back into another: the claim, the job it runs as found when it was claimed, and
 * the job's lock when the claim took it in the same transaction.
 */
public final class Attempt {

    private final ExecutionRecord claim;

    private final JobTarget job;

    private final SimpleLock guardTakenWithClaim;

    Attempt(ExecutionRecord claim, JobTarget job, SimpleLock guardTakenWithClaim) {
        this.claim = claim;
        this.job = job;
        this.guardTakenWithClaim = guardTakenWithClaim;
    }

    /**
     * Returns the claimed attempt, running on this node.
     * @return its row
     */
    public ExecutionRecord claim() {
        return this.claim;
    }

    /**
     * Returns what the attempt runs.
     * @return the job or handler, or empty if this node does not declare it
     */
    public Optional<JobTarget> job() {
        return Optional.ofNullable(this.job);
    }

    /** The job's lock, taken in the transaction that claimed the attempt, or {@code null}. */
    SimpleLock guardTakenWithClaim() {
        return this.guardTakenWithClaim;
    }
}
