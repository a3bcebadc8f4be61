package io.dsched.internal.store;

import io.dsched.execution.ExecutionRecord;
import java.sql.Connection;
import java.sql.JDBCType;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.javacrumbs.shedlock.provider.sql.DatabaseProduct;
import org.springframework.transaction.TransactionStatus;

/**
 * The SQL that differs between the databases dsched runs on, one subclass per database, chosen
 * once at start-up by {@link DatabasePlatform#dialect()}: everything else dsched writes is the
 * same on every database. The defaults here are those of a database whose timestamp columns hold
 * instants ({@code TIMESTAMP WITH TIME ZONE}).
 */
public abstract sealed class SqlDialect permits PostgresDialect, MySqlDialect, H2Dialect {

    SqlDialect() {}

    /**
     * Returns the value to bind for an instant in one of dsched's timestamp columns.
     * @param instant the instant
     * @return the value, of the type the columns hold
     */
    public Object bindable(Instant instant) {
        return OffsetDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    /**
     * Returns the JDBC type of dsched's timestamp columns.
     * @return the type
     */
    public JDBCType timestampType() {
        return JDBCType.TIMESTAMP_WITH_TIMEZONE;
    }

    /**
     * Reads one of dsched's timestamp columns, or {@link #currentTimestampSql()}, as an instant.
     * @param resultSet the result set
     * @param column the column label
     * @return the instant, or {@code null}
     * @throws SQLException if the column cannot be read
     */
    public Instant readInstant(ResultSet resultSet, String column) throws SQLException {
        OffsetDateTime value = resultSet.getObject(column, OffsetDateTime.class);
        return (value != null) ? value.toInstant() : null;
    }

    /**
     * Returns the SQL expression of the database's current time in the form of dsched's
     * timestamp columns.
     * @return the expression
     */
    public String currentTimestampSql() {
        return "CURRENT_TIMESTAMP";
    }

    /**
     * Returns the SQL expression of the database's current time in the form ShedLock keeps in
     * {@code dsched_lock} (UTC without a zone, as its JDBC provider writes with database time).
     * @return the expression
     */
    public abstract String lockClockSql();

    /**
     * The conditions of the waiting attempts, one read of the queue index each: one per waiting
     * status where the index leads with the status (MySQL, MariaDB, H2), so that each read is a
     * range in due order; one for both where the index holds the waiting attempts alone
     * (PostgreSQL's partial index), where a condition per status would be a filter.
     * @param where what else every read asks, such as {@code due_at <= :now}
     * @return the conditions
     */
    String[] waiting(String where) {
        return new String[] {"status = 'RETRY_SCHEDULED' AND " + where, "status = 'SCHEDULED' AND " + where};
    }

    /**
     * Tells whether the database can lock rows passing over those another transaction holds
     * ({@code FOR UPDATE SKIP LOCKED}), so that due attempts and triggers are claimed in batches.
     * @return {@code true} if it can, as PostgreSQL and MySQL can
     */
    public boolean skipsLocked() {
        return true;
    }

    /**
     * Tells whether an insert can pass over a duplicate key without failing the transaction it
     * runs in, so that fires are claimed and locks taken inside the transaction that fires them.
     * @return {@code true} if it can, as PostgreSQL ({@code ON CONFLICT}) and MySQL ({@code INSERT
     *     IGNORE}) can
     */
    public boolean insertsPassOverConflicts() {
        return true;
    }

    /**
     * Returns the database as ShedLock names it, for the statements of {@code dsched_lock}.
     * @return the product
     */
    public abstract DatabaseProduct shedLockProduct();

    /**
     * Returns Quartz's driver delegate for the database.
     * @param skipLocked whether triggers are acquired with {@code SKIP LOCKED}
     * @return the delegate's class name
     */
    public abstract String quartzDelegate(boolean skipLocked);

    /**
     * Returns the statement that announces to the nodes listening on a channel, once the
     * transaction it runs in commits, that attempts of some jobs fell due: two parameters, the
     * channel and an array of the jobs' names, each announced once.
     * @return the statement, or empty where the database has no notices across sessions
     */
    public Optional<String> notifySql() {
        return Optional.empty();
    }

    /**
     * Returns the lock that nodes starting at once take to run the schema script one at a time.
     * @return the lock, or empty where the database has none across connections
     */
    public abstract Optional<SessionLock> schemaLock();

    /** The converters of Spring Data JDBC between instants and the timestamp columns. */
    List<Object> instantConverters() {
        return InstantConverters.forInstants(this);
    }

    /**
     * Returns the statement that stores the trace context of a fire, replacing a row an earlier
     * fire with the same key left: parameters are the key, the carrier and the time.
     */
    abstract String traceUpsert();

    /**
     * Inserts a batch of attempts in the caller's transaction.
     * @return the ids the rows got, in order
     */
    List<Long> insertBatch(ExecutionRows rows, List<ExecutionRecord> batch) {
        return rows.insertReturningKeys(batch);
    }

    /**
     * Inserts running first attempts of fires on a connection inside the caller's transaction,
     * passing over those that exist already.
     * @return the attempts inserted, by idempotency key
     */
    abstract Map<String, ExecutionRecord> claimOn(
            ExecutionRows rows, Connection connection, List<ExecutionRecord> claims) throws SQLException;

    /**
     * Claims the due attempts first in order (the higher priority, then the oldest due) inside the caller's transaction, passing over those another
     * transaction has locked; only where {@link #skipsLocked()}.
     * @return the attempts claimed, now running, in any order
     */
    List<ExecutionRecord> claimDue(
            ExecutionRows rows, TransactionStatus tx, String nodeId, Instant now, int limit, Collection<String> names) {
        throw new UnsupportedOperationException(
                "This database claims due attempts one by one, by a conditional update");
    }
}
