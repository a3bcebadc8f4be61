package io.dsched.internal.store;

import io.dsched.execution.ExecutionRecord;
import java.time.Instant;
import java.util.Optional;
import java.util.function.Supplier;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Callers' idempotency keys held in {@code dsched_unique_key} for a window of the caller's
 * choosing, so that a key deduplicates even after housekeeping deleted its attempts. A key not held
 * here deduplicates for as long as its attempts are in the history.
 */
public class UniqueKeys {

    private final JdbcTemplate jdbc;

    private final ClusterTables tables;

    private final SqlDialect dialect;

    private final TransactionTemplate transactions;

    /**
     * Creates the keys.
     * @param dataSource dsched's DataSource
     * @param tables the cluster's tables
     * @param platform its database
     * @param transactions transactions on that DataSource, the ones the execution store writes in
     */
    public UniqueKeys(
            DataSource dataSource, DatabasePlatform platform, ClusterTables tables, TransactionTemplate transactions) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.tables = tables;
        this.dialect = platform.dialect();
        this.transactions = transactions;
    }

    /**
     * Claims a job's first attempt and holds its key, in one transaction: a job is never stored
     * without the key that keeps it from being submitted again, nor a key without its job.
     * @param claim stores the first attempt, or finds that it exists
     * @param key the fire's idempotency key
     * @param dueAt when the job is due
     * @param until when the key's window closes
     * @return the stored attempt, or empty if it existed already
     */
    public Optional<ExecutionRecord> claimHeld(
            Supplier<Optional<ExecutionRecord>> claim, String key, Instant dueAt, Instant until) {
        return this.transactions.execute((status) -> {
            Optional<ExecutionRecord> saved = claim.get();
            if (saved.isPresent()) {
                hold(key, new HeldKey(saved.get().id(), dueAt), until);
            } else {
                // the attempt existed: nothing to write, and on PostgreSQL the failed insert
                // has ended the transaction's use
                status.setRollbackOnly();
            }
            return saved;
        });
    }

    /**
     * Returns the job a key was first submitted as, if its window is still open.
     * @param key the fire's idempotency key
     * @param now the time of the new submission
     * @return the first job, or empty
     */
    public Optional<HeldKey> held(String key, Instant now) {
        return this.jdbc
                .query(
                        this.tables.sql(
                                "SELECT execution_id, due_at FROM dsched_unique_key WHERE idempotency_key = ? AND expires_at > ?"),
                        (row, number) ->
                                new HeldKey(row.getLong("execution_id"), this.dialect.readInstant(row, "due_at")),
                        key,
                        this.dialect.bindable(now))
                .stream()
                .findFirst();
    }

    /**
     * Holds a key for the job it was just submitted as, until a time; a key whose window had
     * closed is held again.
     * @param key the fire's idempotency key
     * @param held the job
     * @param until when the window closes
     */
    public void hold(String key, HeldKey held, Instant until) {
        Object dueAt = this.dialect.bindable(held.dueAt());
        Object expiresAt = this.dialect.bindable(until);
        int updated = this.jdbc.update(
                this.tables.sql(
                        "UPDATE dsched_unique_key SET execution_id = ?, due_at = ?, expires_at = ? WHERE idempotency_key = ?"),
                held.executionId(),
                dueAt,
                expiresAt,
                key);
        if (updated == 0) {
            this.jdbc.update(
                    this.tables.sql("INSERT INTO dsched_unique_key (idempotency_key, execution_id, due_at, expires_at)"
                            + " VALUES (?, ?, ?, ?)"),
                    key,
                    held.executionId(),
                    dueAt,
                    expiresAt);
        }
    }
}
