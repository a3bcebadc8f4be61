package io.dsched.internal.store;

import io.dsched.execution.ExecutionRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.function.Supplier;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Claims waiting attempts of {@code dsched_execution} that have fallen due: in batches that pass
 * over rows another node has locked where the database can ({@code SKIP LOCKED}), otherwise one
 * conditional update per attempt.
 */
public final class ExecutionClaims {

    private final ExecutionRows rows;

    private final TransactionTemplate transactions;

    private final boolean skipLocked;

    private final LimitedClaims limited;

    ExecutionClaims(ExecutionRows rows, TransactionTemplate transactions, boolean skipLocked, LimitRows limitRows) {
        this.rows = rows;
        this.transactions = transactions;
        this.skipLocked = skipLocked && rows.dialect.skipsLocked();
        this.limited = new LimitedClaims(rows, transactions, limitRows);
    }

    /**
     * Claims waiting attempts of a target with cluster-wide limits (a concurrency limit, a rate, a
     * quota) that have fallen due, no more than the limits leave room for: see {@link LimitedClaims}.
     * @param nodeId the claiming node
     * @param clock the node's clock, read again once the limits are locked
     * @param limit how many at most this node takes
     * @param name the target
     * @param limits the limits this node declares for it
     * @param outcomes what this node counted of its attempts, for an adaptive limit
     * @return the attempts this node claimed, now running: the higher priority first, then the oldest due
     */
    public List<ExecutionRecord> claimDue(
            String nodeId,
            Supplier<Instant> clock,
            int limit,
            String name,
            TargetLimits limits,
            LimitOutcomes outcomes) {
        return this.limited.claimDue(nodeId, clock, limit, name, limits, outcomes);
    }

    /**
     * Finds waiting attempts that have fallen due, in the order they are claimed, without locking
     * or claiming them.
     * @param now the current time
     * @param limit how many at most
     * @param names the jobs and handlers to look at
     * @return the candidates: the higher priority first, then the oldest due
     */
    public List<ExecutionRecord> findDue(Instant now, int limit, Collection<String> names) {
        return this.rows.findDue(now, limit, names);
    }

    /**
     * Tells whether due attempts are claimed with {@code FOR UPDATE SKIP LOCKED}.
     * @return {@code true} if they are
     */
    public boolean claimsWithSkipLocked() {
        return this.skipLocked;
    }

    /**
     * Claims waiting attempts that have fallen due.
     * @param nodeId the claiming node
     * @param now the current time
     * @param limit how many at most
     * @param names the jobs and handlers the node can run
     * @return the attempts this node claimed, now running: the higher priority first, then the oldest due
     */
    public List<ExecutionRecord> claimDue(String nodeId, Instant now, int limit, Collection<String> names) {
        if (this.skipLocked) {
            return this.transactions.execute(
                    (tx) -> inClaimOrder(this.rows.dialect.claimDue(this.rows, tx, nodeId, now, limit, names)));
        }
        // one conditional update per attempt: the first node to change the row has it
        ExecutionRepository repository = this.rows.repository;
        List<ExecutionRecord> claimed = new ArrayList<>();
        for (ExecutionRecord candidate : this.rows.findDue(now, limit, names)) {
            if (repository.claimWaiting(candidate.id(), candidate.status().name(), nodeId, now) == 1) {
                claimed.add(candidate.claimedBy(nodeId, now));
            }
        }
        return claimed;
    }

    /**
     * Claims the due attempts of a broadcast job: its shards written for this node, which no other
     * node claims, and those of no shard (a run by hand), which any node may: one conditional update
     * each.
     * @param nodeId the claiming node
     * @param now the current time
     * @param limit how many at most
     * @param name the job
     * @return the attempts this node claimed, now running, in claim order
     */
    public List<ExecutionRecord> claimDueOn(String nodeId, Instant now, int limit, String name) {
        List<ExecutionRecord> claimed = new ArrayList<>();
        for (ExecutionRecord candidate : this.rows.findDueOn(now, limit, name, nodeId)) {
            if (this.rows.repository.claimWaiting(
                            candidate.id(), candidate.status().name(), nodeId, now)
                    == 1) {
                claimed.add(candidate.claimedBy(nodeId, now));
            }
        }
        return claimed;
    }

    private static List<ExecutionRecord> inClaimOrder(List<ExecutionRecord> claimed) {
        return claimed.stream()
                .sorted(Comparator.comparingInt(ExecutionRecord::priority)
                        .reversed()
                        .thenComparing(ExecutionRecord::dueAt)
                        .thenComparing(ExecutionRecord::id))
                .toList();
    }
}
