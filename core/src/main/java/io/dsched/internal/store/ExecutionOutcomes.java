package io.dsched.internal.store;

import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.ExecutionStatus;
import io.dsched.internal.text.BoundedText;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Records the outcomes of running attempts in {@code dsched_execution}, each fenced on the claim
 * (the attempt still RUNNING on the claiming node). An outcome and what follows from it (the next
 * attempt, or the dead letter) are written in one transaction. The ends of attempts whose
 * worker is gone (their node died, or an earlier process of this node left them) are {@link
 * ExecutionRescues}'.
 */
public final class ExecutionOutcomes implements AutoCloseable {

    private final ExecutionRepository repository;

    private final DeadLetterRepository deadLetters;

    private final TransactionTemplate transactions;

    private final ExecutionInserts inserts;

    private final GroupedSuccesses successes;

    private final CancelRequests cancels;

    ExecutionOutcomes(
            ExecutionRepository repository,
            DeadLetterRepository deadLetters,
            TransactionTemplate transactions,
            ExecutionInserts inserts,
            GroupedSuccesses successes,
            CancelRequests cancels) {
        this.repository = repository;
        this.deadLetters = deadLetters;
        this.transactions = transactions;
        this.inserts = inserts;
        this.successes = successes;
        this.cancels = cancels;
    }

    /**
     * Records the final outcome of a running attempt.
     * @param claim the running attempt
     * @param status its final state
     * @param startedAt when its method started
     * @param finishedAt when it ended
     * @param error what it failed with, or {@code null}
     * @param reason why it is in its state, or {@code null}
     * @throws IllegalStateException if the transition is illegal or the attempt is no longer
     *     running on the claiming node
     */
    public void finish(
            ExecutionRecord claim,
            ExecutionStatus status,
            Instant startedAt,
            Instant finishedAt,
            Throwable error,
            String reason) {
        ExecutionStatus.RUNNING.checkMoveTo(status);
        int updated = this.repository.finish(
                claim.id(),
                claim.nodeId(),
                status.name(),
                startedAt,
                finishedAt,
                (error != null) ? BoundedText.cut(error.getClass().getName(), TextColumns.ERROR_CLASS) : null,
                (error != null) ? BoundedText.cut(String.valueOf(error.getMessage()), TextColumns.ERROR_MESSAGE) : null,
                BoundedText.cut(reason, TextColumns.STATUS_REASON));
        if (updated != 1) {
            throw new LostClaimException(claim, status);
        }
    }

    /**
     * Records that a running attempt succeeded, in the background: the outcomes of attempts that
     * succeed at about the same time on this node are written in one transaction. Until then the
     * attempt stays RUNNING on this node.
     * @param claim the running attempt
     * @param startedAt when its method started
     * @param finishedAt when it ended
     * @return completes once the outcome is written; exceptionally with a {@link
     *     LostClaimException} if the attempt no longer runs on the claiming node, or with what the
     *     database failed with
     */
    public CompletableFuture<Void> succeed(ExecutionRecord claim, Instant startedAt, Instant finishedAt) {
        return succeed(claim, startedAt, finishedAt, null);
    }

    /**
     * Records an attempt that succeeded, as {@link #succeed(ExecutionRecord, Instant, Instant)}
     * does, and releases its job's guard in the same transaction: the guard stays held until the
     * outcome is written.
     * @param claim the running attempt
     * @param startedAt when its method started
     * @param finishedAt when it ended
     * @param guard the job's guard, or {@code null}
     * @return completes once the outcome is written and the guard released; exceptionally with a
     *     {@link LostClaimException} if the attempt no longer runs on the claiming node (the guard
     *     is released all the same), or with what the database failed with
     */
    public CompletableFuture<Void> succeed(
            ExecutionRecord claim, Instant startedAt, Instant finishedAt, LockRelease guard) {
        return this.successes.succeed(claim, startedAt, finishedAt, guard).thenAccept((written) -> {
            if (!written) {
                throw new LostClaimException(claim, ExecutionStatus.SUCCEEDED);
            }
        });
    }

    /**
     * Asks for the successes handed over to be written at once, without waiting for this node's
     * due fires to start: for a worker about to block until one of them is written.
     */
    public void hurry() {
        this.successes.hurry();
    }

    /**
     * Records a failed attempt and schedules the next one, atomically.
     * @param claim the running attempt
     * @param status {@link ExecutionStatus#FAILED} or {@link ExecutionStatus#TIMED_OUT}
     * @param startedAt when its method started
     * @param finishedAt when it ended
     * @param error what it failed with
     * @param reason why, or {@code null}
     * @param next the waiting attempt to insert
     */
    public void failAndRetry(
            ExecutionRecord claim,
            ExecutionStatus status,
            Instant startedAt,
            Instant finishedAt,
            Throwable error,
            String reason,
            ExecutionRecord next) {
        this.transactions.executeWithoutResult((tx) -> {
            finish(claim, status, startedAt, finishedAt, error, reason);
            this.inserts.insert(next);
        });
    }

    /**
     * Records a failed attempt's outcome, unless someone asked to stop the attempt: then it is
     * {@code CANCELLED} instead, neither retried nor dead-lettered. The request is looked for under
     * the attempt's row lock, in the outcome's transaction, so that a request written at the same
     * moment either is seen here or finds the attempt ended.
     * @param claim the running attempt
     * @param startedAt when its method started
     * @param finishedAt when it ended
     * @param error what it failed with
     * @param outcome writes the outcome otherwise, joining this transaction
     * @return who asked to stop the attempt, if it was cancelled instead
     */
    public Optional<String> failUnlessStopped(
            ExecutionRecord claim, Instant startedAt, Instant finishedAt, Throwable error, Runnable outcome) {
        return this.transactions.execute((tx) -> {
            Optional<String> stoppedBy = this.cancels.lockAndFind(claim.id());
            if (stoppedBy.isPresent()) {
                cancel(claim, startedAt, finishedAt, error, stoppedBy.get());
            } else {
                outcome.run();
            }
            return stoppedBy;
        });
    }

    /**
     * Records that a running attempt was stopped on request.
     * @param claim the running attempt
     * @param startedAt when its method started
     * @param finishedAt when it ended
     * @param error what it ended with, or {@code null}
     * @param requestedBy who asked to stop it
     */
    public void cancel(
            ExecutionRecord claim, Instant startedAt, Instant finishedAt, Throwable error, String requestedBy) {
        finish(claim, ExecutionStatus.CANCELLED, startedAt, finishedAt, error, CancelRequests.reason(requestedBy));
    }

    /**
     * Records a failed attempt as the last one of its fire and files the dead letter,
     * atomically.
     * @param claim the running attempt
     * @param startedAt when its method started
     * @param finishedAt when it ended
     * @param error what it failed with
     * @param reason why it is not retried
     * @param letter makes the letter, given the fire's first failure time
     * @return the filed letter
     */
    public DeadLetter deadLetter(
            ExecutionRecord claim,
            Instant startedAt,
            Instant finishedAt,
            Throwable error,
            String reason,
            Function<Instant, DeadLetter> letter) {
        return this.transactions.execute((tx) -> {
            finish(claim, ExecutionStatus.DEAD_LETTERED, startedAt, finishedAt, error, reason);
            Instant firstFailure = this.repository.findByIdempotencyKey(claim.idempotencyKey()).stream()
                    .filter((attempt) -> attempt.errorClass() != null && attempt.finishedAt() != null)
                    .map(ExecutionRecord::finishedAt)
                    .min(Instant::compareTo)
                    .orElse(finishedAt);
            return this.deadLetters.save(letter.apply(firstFailure));
        });
    }

    /**
     * Puts a claimed attempt back to wait, unless someone asked to stop it meanwhile: then it is
     * cancelled, under the attempt's row lock, as a request written at the same moment either is
     * seen here or finds the attempt waiting, which it cancels itself.
     * @param claim the running attempt
     * @param dueAt when it falls due again
     * @param reason why it waits
     * @return {@code true} if it was put back or cancelled
     */
    public boolean defer(ExecutionRecord claim, Instant dueAt, String reason) {
        ExecutionStatus waiting = (claim.attempt() == 1) ? ExecutionStatus.SCHEDULED : ExecutionStatus.RETRY_SCHEDULED;
        return Boolean.TRUE.equals(this.transactions.execute((tx) -> {
            Optional<String> stoppedBy = this.cancels.lockAndFind(claim.id());
            if (stoppedBy.isPresent()) {
                cancel(claim, claim.startedAt(), claim.startedAt(), null, stoppedBy.get());
                return true;
            }
            return this.repository.defer(
                            claim.id(),
                            claim.nodeId(),
                            waiting.name(),
                            dueAt,
                            BoundedText.cut(reason, TextColumns.STATUS_REASON))
                    == 1;
        }));
    }

    /** Writes the outcomes still waiting for their commit, then stops the writer. */
    @Override
    public void close() {
        this.successes.close();
    }
}
