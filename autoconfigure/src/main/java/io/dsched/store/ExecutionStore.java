package io.dsched.store;

import io.dsched.execution.ExecutionStatus;
import java.time.Instant;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.data.relational.core.conversion.DbActionExecutionException;

/**
 * Claims attempts and records their outcomes in {@code dsched_execution}.
 */
public class ExecutionStore {

    private static final Logger logger = LoggerFactory.getLogger(ExecutionStore.class);

    private static final int MAX_MESSAGE = 2000;

    private static final int MAX_CLASS = 500;

    private static final int MAX_REASON = 500;

    private final ExecutionRepository repository;

    /**
     * Creates a store over a repository.
     * @param repository the Spring Data JDBC repository of executions
     */
    public ExecutionStore(ExecutionRepository repository) {
        this.repository = repository;
    }

    /**
     * Returns the repository, for queries over the history.
     * @return the repository
     */
    public ExecutionRepository repository() {
        return this.repository;
    }

    /**
     * Claims an attempt at a fire by inserting its row under the unique (idempotency key,
     * attempt). Only one node's insert can succeed.
     * @param claim the row to insert
     * @return the saved row, or empty if the attempt was already claimed
     */
    public Optional<ExecutionRecord> claim(ExecutionRecord claim) {
        try {
            return Optional.of(this.repository.save(claim));
        } catch (DuplicateKeyException ex) {
            return Optional.empty();
        } catch (DbActionExecutionException ex) {
            if (ex.getCause() instanceof DuplicateKeyException) {
                logger.debug("Attempt {} of '{}' already claimed", claim.attempt(), claim.idempotencyKey());
                return Optional.empty();
            }
            throw ex;
        }
    }

    /**
     * Records the outcome of a running attempt.
     * @param claim the row the attempt was claimed with
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
            throw new IllegalStateException("Execution " + claim.id() + " of '" + claim.jobName()
                    + "' is no longer RUNNING on node " + claim.nodeId() + "; not recording " + status);
        }
    }

    private static String truncate(String text, int max) {
        if (text == null || text.length() <= max) {
            return text;
        }
        return text.substring(0, max - 1) + "…";
    }
}
