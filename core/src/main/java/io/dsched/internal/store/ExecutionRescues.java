package io.dsched.internal.store;

import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.ExecutionStatus;
import io.dsched.internal.store.ExecutionStore.NodeLostException;
import io.dsched.internal.text.BoundedText;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Function;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Takes over running attempts whose worker is gone: those of a node declared dead, and this node's
 * own that it no longer runs (left by an earlier process of the same node id). Each is ended fenced
 * on the node it was running on (the attempt still RUNNING there, so that two nodes rescuing it at
 * once rescue it once), and what follows (the attempt that re-runs it, or the dead letter) is
 * written in the same transaction.
 */
public final class ExecutionRescues {

    private final ExecutionRepository repository;

    private final DeadLetterRepository deadLetters;

    private final TransactionTemplate transactions;

    private final ExecutionInserts inserts;

    private final CancelRequests cancels;

    ExecutionRescues(
            ExecutionRepository repository,
            DeadLetterRepository deadLetters,
            TransactionTemplate transactions,
            ExecutionInserts inserts,
            CancelRequests cancels) {
        this.repository = repository;
        this.deadLetters = deadLetters;
        this.transactions = transactions;
        this.inserts = inserts;
        this.cancels = cancels;
    }

    /**
     * Takes over an attempt whose node died: marks it failed, fenced on its node, and schedules
     * the attempt that re-runs it, atomically; an attempt someone asked to stop is cancelled
     * instead.
     * @param orphan the running attempt of the dead node
     * @param now the current time
     * @param reason why it is taken over
     * @param next the waiting attempt that re-runs it, or {@code null} to dead-letter instead
     * @param letter makes the dead letter when {@code next} is {@code null}
     * @return {@code true} if this node took it over, {@code false} if another did first
     */
    public boolean rescue(
            ExecutionRecord orphan,
            Instant now,
            String reason,
            ExecutionRecord next,
            Function<Instant, DeadLetter> letter) {
        Boolean rescued = this.transactions.execute((tx) -> {
            Optional<String> stoppedBy = this.cancels.lockAndFind(orphan.id());
            if (stoppedBy.isPresent()) {
                // someone asked to stop it: it is not run again
                return finish(orphan, ExecutionStatus.CANCELLED, now, reason, CancelRequests.reason(stoppedBy.get()));
            }
            ExecutionStatus status = (next != null) ? ExecutionStatus.FAILED : ExecutionStatus.DEAD_LETTERED;
            if (!finish(orphan, status, now, reason, reason)) {
                return false;
            }
            if (next != null) {
                this.inserts.insert(next);
            } else {
                this.deadLetters.save(letter.apply(now));
            }
            return true;
        });
        return Boolean.TRUE.equals(rescued);
    }

    /**
     * Ends an attempt whose node died without running it again: a broadcast job's, which runs on
     * its own node alone. Fenced on its node, as {@link #rescue} is.
     * @param orphan the running attempt of the dead node
     * @param now the current time
     * @param reason why it is cancelled
     * @return {@code true} if this node ended it, {@code false} if another did first
     */
    public boolean cancel(ExecutionRecord orphan, Instant now, String reason) {
        return Boolean.TRUE.equals(
                this.transactions.execute((tx) -> finish(orphan, ExecutionStatus.CANCELLED, now, reason, reason)));
    }

    private boolean finish(ExecutionRecord orphan, ExecutionStatus status, Instant now, String message, String reason) {
        return this.repository.finish(
                        orphan.id(),
                        orphan.nodeId(),
                        status.name(),
                        orphan.startedAt(),
                        now,
                        NodeLostException.class.getName(),
                        BoundedText.cut(message, TextColumns.ERROR_MESSAGE),
                        BoundedText.cut(reason, TextColumns.STATUS_REASON))
                == 1;
    }
}
