package io.dsched.store;

import io.dsched.deadletter.DeadLetter;
import io.dsched.deadletter.DeadLetterRepository;
import io.dsched.execution.ExecutionStatus;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.data.relational.core.conversion.DbActionExecutionException;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Claims attempts and records their outcomes in {@code dsched_execution}. An outcome and what
 * follows from it (the next attempt, or the dead letter) are written in one transaction.
 */
public class ExecutionStore {

    private static final Logger logger = LoggerFactory.getLogger(ExecutionStore.class);

    private static final int MAX_MESSAGE = 2000;

    private static final int MAX_CLASS = 500;

    private static final int MAX_REASON = 500;

    private final ExecutionRepository repository;

    private final DeadLetterRepository deadLetters;

    private final TransactionTemplate transactions;

    /**
     * Creates a store.
     * @param repository the repository of executions
     * @param deadLetters the repository of dead letters
     * @param transactions transactions on dsched's DataSource
     */
    public ExecutionStore(
            ExecutionRepository repository, DeadLetterRepository deadLetters, TransactionTemplate transactions) {
        this.repository = repository;
        this.deadLetters = deadLetters;
        this.transactions = transactions;
    }

    /**
     * Returns the repository, for queries over the history.
     * @return the repository
     */
    public ExecutionRepository repository() {
        return this.repository;
    }

    /**
     * Inserts an attempt under the unique (idempotency key, attempt): a claim of a running
     * attempt, or a waiting one. Only one insert of an attempt can succeed.
     * @param attempt the row to insert
     * @return the saved row, or empty if the attempt already exists
     */
    public Optional<ExecutionRecord> claim(ExecutionRecord attempt) {
        try {
            return Optional.of(this.repository.save(attempt));
        } catch (DuplicateKeyException ex) {
            return Optional.empty();
        } catch (DbActionExecutionException ex) {
            if (ex.getCause() instanceof DuplicateKeyException) {
                logger.debug("Attempt {} of '{}' already exists", attempt.attempt(), attempt.idempotencyKey());
                return Optional.empty();
            }
            throw ex;
        }
    }

    /**
     * Claims waiting attempts that have fallen due.
     * @param nodeId the claiming node
     * @param now the current time
     * @param limit how many at most
     * @param names the jobs and handlers the node can run
     * @return the attempts this node claimed, now running
     */
    public List<ExecutionRecord> claimDue(String nodeId, Instant now, int limit, Collection<String> names) {
        List<ExecutionRecord> claimed = new ArrayList<>();
        for (ExecutionRecord candidate : this.repository.findDue(now, limit, names)) {
            if (this.repository.claimWaiting(candidate.id(), candidate.status().name(), nodeId, now) == 1) {
                claimed.add(candidate.claimedBy(nodeId, now));
            }
        }
        return claimed;
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
                (error != null) ? truncate(error.getClass().getName(), MAX_CLASS) : null,
                (error != null) ? truncate(String.valueOf(error.getMessage()), MAX_MESSAGE) : null,
                truncate(reason, MAX_REASON));
        if (updated != 1) {
            throw new LostClaimException(claim, status);
        }
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
            this.repository.save(next);
        });
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
     * Takes over an attempt whose node died: marks it failed, fenced on its node, and schedules
     * the attempt that re-runs it, atomically.
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
            ExecutionStatus status = (next != null) ? ExecutionStatus.FAILED : ExecutionStatus.DEAD_LETTERED;
            int updated = this.repository.finish(
                    orphan.id(),
                    orphan.nodeId(),
                    status.name(),
                    orphan.startedAt(),
                    now,
                    NodeLostException.class.getName(),
                    truncate(reason, MAX_MESSAGE),
                    truncate(reason, MAX_REASON));
            if (updated != 1) {
                return false;
            }
            if (next != null) {
                this.repository.save(next);
            } else {
                this.deadLetters.save(letter.apply(now));
            }
            return true;
        });
        return Boolean.TRUE.equals(rescued);
    }

    /**
     * Puts a claimed attempt back to wait.
     * @param claim the running attempt
     * @param dueAt when it falls due again
     * @param reason why it waits
     * @return {@code true} if it was put back
     */
    public boolean defer(ExecutionRecord claim, Instant dueAt, String reason) {
        ExecutionStatus waiting = (claim.attempt() == 1) ? ExecutionStatus.SCHEDULED : ExecutionStatus.RETRY_SCHEDULED;
        return this.repository.defer(claim.id(), claim.nodeId(), waiting.name(), dueAt, truncate(reason, MAX_REASON))
                == 1;
    }

    static String truncate(String text, int max) {
        if (text == null || text.length() <= max) {
            return text;
        }
        return text.substring(0, max - 1) + "…";
    }

    /** The error class recorded for an attempt whose node died while running it. */
    public static final class NodeLostException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        private NodeLostException() {}
    }

    /**
     * An attempt's outcome could not be written because the attempt is no longer running on the
     * node that claimed it: another node took it over.
     */
    public static final class LostClaimException extends IllegalStateException {

        private static final long serialVersionUID = 1L;

        LostClaimException(ExecutionRecord claim, ExecutionStatus status) {
            super("Execution " + claim.id() + " of '" + claim.jobName() + "' is no longer RUNNING on node "
                    + claim.nodeId() + "; not recording " + status);
        }
    }
}
