package io.dsched.internal.store;

import io.dsched.execution.ExecutionRecord;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Inserts attempts into {@code dsched_execution} under their unique (idempotency key, attempt):
 * claims of running attempts and waiting ones, one at a time or in batches, with the trace context
 * their fire was submitted in ({@code dsched_execution_trace}) in the same transaction.
 */
public final class ExecutionInserts {

    private static final Logger logger = LoggerFactory.getLogger(ExecutionInserts.class);

    private static final int INSERT_BATCH = 1000;

    private final ExecutionRows rows;

    private final TransactionTemplate transactions;

    private final ExecutionTraces traces;

    ExecutionInserts(ExecutionRows rows, TransactionTemplate transactions, ExecutionTraces traces) {
        this.rows = rows;
        this.transactions = transactions;
        this.traces = traces;
    }

    /**
     * Inserts an attempt under the unique (idempotency key, attempt): a claim of a running
     * attempt, or a waiting one. Only one insert of an attempt can succeed.
     * @param attempt the row to insert
     * @return the saved row, or empty if the attempt already exists
     */
    public Optional<ExecutionRecord> claim(ExecutionRecord attempt) {
        try {
            return Optional.of(insert(attempt));
        } catch (DuplicateKeyException ex) {
            logger.debug("Attempt {} of '{}' already exists", attempt.attempt(), attempt.idempotencyKey());
            return Optional.empty();
        }
    }

    /**
     * Inserts an attempt as {@link #claim(ExecutionRecord)} does and, in the same transaction, the
     * trace context its fire was submitted in.
     * @param attempt the first attempt of a fire, waiting
     * @param traceCarrier the trace context's propagation fields, encoded, or {@code null} for none;
     *     one longer than 1000 characters is not stored
     * @return the saved row, or empty if the attempt already exists
     */
    public Optional<ExecutionRecord> claim(ExecutionRecord attempt, String traceCarrier) {
        String carrier = storable(traceCarrier);
        if (carrier == null) {
            return claim(attempt);
        }
        try {
            return Optional.of(this.transactions.execute((tx) -> {
                ExecutionRecord saved = insert(attempt);
                this.traces.save(List.of(saved), carrier);
                return saved;
            }));
        } catch (DuplicateKeyException ex) {
            logger.debug("Attempt {} of '{}' already exists", attempt.attempt(), attempt.idempotencyKey());
            return Optional.empty();
        }
    }

    private static String storable(String traceCarrier) {
        if (traceCarrier != null && traceCarrier.length() > ExecutionTraces.MAX_CARRIER) {
            logger.debug(
                    "Not storing a trace context of {} characters; at most {} fit",
                    traceCarrier.length(),
                    ExecutionTraces.MAX_CARRIER);
            return null;
        }
        return traceCarrier;
    }

    /**
     * Claims first attempts of fires on a connection whose transaction the caller owns and
     * commits: the fires Quartz hands this node, claimed in the transaction that fires them, so
     * that a worker finds its fire claimed instead of claiming it with a commit of its own. A
     * fire that already has the attempt is left out, and so is everything on a database with no
     * insert that passes over a conflict without failing the transaction (H2).
     * @param connection the connection, inside a transaction
     * @param claims the attempts to insert, each {@link ExecutionRecord#claim running}
     * @return the attempts inserted, by idempotency key
     * @throws SQLException if an insert fails
     */
    public Map<String, ExecutionRecord> claimOn(Connection connection, List<ExecutionRecord> claims)
            throws SQLException {
        return this.rows.dialect.claimOn(this.rows, connection, claims);
    }

    /**
     * Inserts first attempts of fires, waiting, on a connection whose transaction the caller owns
     * and commits, as {@link #claimOn} does claims: a fire that already has the attempt is left out,
     * and so is everything on H2.
     * @param connection the connection, inside a transaction
     * @param attempts the attempts to insert, each {@link ExecutionRecord#waiting waiting}
     * @throws SQLException if an insert fails
     */
    public void insertOn(Connection connection, List<ExecutionRecord> attempts) throws SQLException {
        if (!attempts.isEmpty()) {
            this.rows.dialect.claimOn(this.rows, connection, attempts);
        }
    }

    /**
     * Returns which of some jobs have an attempt waiting (a retry, a manual run, a fire left by a
     * stopping node), read on a connection whose transaction the caller owns.
     * @param connection the connection, inside a transaction
     * @param jobNames the jobs
     * @return those with a waiting attempt
     * @throws SQLException if the read fails
     */
    public Set<String> withWaitingAttemptsOn(Connection connection, Collection<String> jobNames) throws SQLException {
        return withAttemptsOn(connection, jobNames, "status IN ('SCHEDULED', 'RETRY_SCHEDULED')");
    }

    /**
     * Returns which of some jobs have a fire held (see {@link ShardedFires}), read on a connection
     * whose transaction the caller owns.
     * @param connection the connection, inside a transaction
     * @param jobNames the jobs
     * @return those with a fire held
     * @throws SQLException if the read fails
     */
    public Set<String> withHeldFireOn(Connection connection, Collection<String> jobNames) throws SQLException {
        return withAttemptsOn(connection, jobNames, "status = 'SCHEDULED' AND due_at IS NULL");
    }

    /**
     * Returns which of some jobs have an attempt not ended (waiting or running), read on a
     * connection whose transaction the caller owns.
     * @param connection the connection, inside a transaction
     * @param jobNames the jobs
     * @return those with an attempt not ended
     * @throws SQLException if the read fails
     */
    public Set<String> withUnfinishedAttemptsOn(Connection connection, Collection<String> jobNames)
            throws SQLException {
        return withAttemptsOn(connection, jobNames, "status IN ('SCHEDULED', 'RETRY_SCHEDULED', 'RUNNING')");
    }

    /**
     * Inserts the first attempts of a fire, waiting, all in one transaction or none: the shards of a
     * sharded job's fire, held while an attempt of the job has not ended (the queue lets a held fire
     * go once none has). Nothing is inserted if the fire has first attempts already, however many
     * (a broadcast fire's count is the live nodes as each writer saw them), nor while another fire
     * of the job is held: a job keeps at most one fire held, and skips those that come meanwhile.
     * @param jobName the job
     * @param scheduledAt the fire's time
     * @param holds whether the fire is held behind the job's earlier ones (not for a job whose fires
     *     may overlap)
     * @param attempts the attempts to insert, given whether an attempt of the job has not ended
     * @return what became of the fire
     */
    public FireInsert insertFire(
            String jobName, Instant scheduledAt, boolean holds, Function<Boolean, List<ExecutionRecord>> attempts) {
        try {
            FireInsert inserted = this.transactions.execute(
                    (tx) -> this.rows.jdbc.execute((ConnectionCallback<FireInsert>) (connection) -> {
                        if (fireExists(connection, jobName, scheduledAt)) {
                            return FireInsert.EXISTS;
                        }
                        boolean behind = holds
                                && !withUnfinishedAttemptsOn(connection, List.of(jobName))
                                        .isEmpty();
                        List<ExecutionRecord> fire = attempts.apply(behind);
                        if (behind
                                && !withHeldFireOn(connection, List.of(jobName)).isEmpty()) {
                            return FireInsert.SKIPPED;
                        }
                        this.rows.dialect.insertBatch(this.rows, fire);
                        return FireInsert.INSERTED;
                    }));
            return (inserted != null) ? inserted : FireInsert.EXISTS;
        } catch (DuplicateKeyException ex) {
            logger.debug("The fire of '{}' has its attempts already", jobName);
            return FireInsert.EXISTS;
        }
    }

    /** What became of a fire whose attempts were to be inserted. */
    public enum FireInsert {
        /** Its attempts were inserted. */
        INSERTED,
        /** It had its attempts already, written with the fire or by another delivery of it. */
        EXISTS,
        /** Not written: another fire of the job is held already. */
        SKIPPED
    }

    /** Whether a scheduled fire of a job has its first attempts: read through the index on job and fire. */
    private boolean fireExists(Connection connection, String jobName, Instant scheduledAt) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(this.rows.tables.sql(
                "SELECT 1 FROM dsched_execution WHERE job_name = ? AND scheduled_at >= ? AND scheduled_at < ?"
                        + " AND attempt = 1 AND origin = 'SCHEDULE'"))) {
            // the fire of its keys' millisecond, as the history keeps its time
            Instant fire = scheduledAt.truncatedTo(ChronoUnit.MILLIS);
            statement.setString(1, jobName);
            statement.setObject(2, this.rows.dialect.bindable(fire));
            statement.setObject(3, this.rows.dialect.bindable(fire.plusMillis(1)));
            try (java.sql.ResultSet rows = statement.executeQuery()) {
                return rows.next();
            }
        }
    }

    private Set<String> withAttemptsOn(Connection connection, Collection<String> jobNames, String condition)
            throws SQLException {
        Set<String> waiting = new HashSet<>();
        if (jobNames.isEmpty()) {
            return waiting;
        }
        String marks = String.join(", ", java.util.Collections.nCopies(jobNames.size(), "?"));
        try (PreparedStatement statement =
                connection.prepareStatement(this.rows.tables.sql("SELECT DISTINCT job_name FROM dsched_execution WHERE "
                        + condition + " AND job_name IN (" + marks + ")"))) {
            int index = 1;
            for (String job : jobNames) {
                statement.setString(index++, job);
            }
            try (java.sql.ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    waiting.add(rows.getString(1));
                }
            }
        }
        return waiting;
    }

    /**
     * Takes back, inside the transaction that inserted it, an attempt {@link #claimOn claimed}
     * there.
     * @param connection the connection, inside that transaction
     * @param claim the attempt
     * @throws SQLException if the delete fails
     */
    public void unclaimOn(Connection connection, ExecutionRecord claim) throws SQLException {
        try (PreparedStatement statement =
                connection.prepareStatement(this.rows.tables.sql("DELETE FROM dsched_execution WHERE id = ?"))) {
            statement.setLong(1, claim.id());
            statement.executeUpdate();
        }
    }

    /**
     * Inserts new waiting attempts, whose idempotency keys no other row has, in batches of one
     * transaction each.
     * @param attempts the rows to insert
     * @return the saved rows, in order
     */
    public List<ExecutionRecord> insertAll(List<ExecutionRecord> attempts) {
        return insertAll(attempts, null);
    }

    /**
     * Inserts new waiting attempts as {@link #insertAll(List)} does and, in the transaction of
     * each batch, the trace context they were submitted in.
     * @param attempts the rows to insert
     * @param traceCarrier the trace context's propagation fields, encoded, or {@code null} for none;
     *     one longer than 1000 characters is not stored
     * @return the saved rows, in order
     */
    public List<ExecutionRecord> insertAll(List<ExecutionRecord> attempts, String traceCarrier) {
        String carrier = storable(traceCarrier);
        List<ExecutionRecord> saved = new ArrayList<>(attempts.size());
        for (int from = 0; from < attempts.size(); from += INSERT_BATCH) {
            List<ExecutionRecord> batch = attempts.subList(from, Math.min(attempts.size(), from + INSERT_BATCH));
            List<Long> ids = this.transactions.execute((tx) -> {
                List<Long> inserted = this.rows.dialect.insertBatch(this.rows, batch);
                if (carrier != null) {
                    this.traces.save(batch, carrier);
                }
                return inserted;
            });
            for (int i = 0; i < batch.size(); i++) {
                saved.add(batch.get(i).withId(ids.get(i)));
            }
        }
        return saved;
    }

    /** Inserts one attempt in the caller's transaction, if any. */
    ExecutionRecord insert(ExecutionRecord row) {
        return row.withId(this.rows.dialect.insertBatch(this.rows, List.of(row)).get(0));
    }
}
