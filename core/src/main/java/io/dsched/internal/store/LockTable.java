package io.dsched.internal.store;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.provider.jdbctemplate.JdbcTemplateLockProvider;
import net.javacrumbs.shedlock.provider.sql.SqlStatementsSource;
import org.springframework.jdbc.core.SqlTypeValue;
import org.springframework.jdbc.core.StatementCreatorUtils;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterUtils;
import org.springframework.jdbc.core.namedparam.ParsedSql;

/**
 * dsched's ShedLock table, {@code dsched_lock} (of the cluster's tables), written with the statements ShedLock itself uses
 * for the database and its clock, over plain JDBC.
 *
 * <p>ShedLock's {@code JdbcTemplateLockProvider} runs each statement in a Spring transaction of
 * its own; taking and releasing a job's guard was the largest share of a worker's CPU time per
 * fire. Here taking a free lock is one autocommit statement, and a fire claimed in the
 * transaction that fires it takes its lock in that same transaction. Rows stay compatible with
 * ShedLock's provider, which an application may still use on the same table.
 */
public final class LockTable {

    private final DataSource dataSource;

    private final SqlStatementsSource statements;

    private final Statement insert;

    private final Statement update;

    private final Statement unlock;

    private final boolean insertPassesOverConflicts;

    /**
     * Creates the table's statements.
     * @param dataSource dsched's DataSource
     * @param platform its database
     * @param tables the cluster's tables
     * @param lockedBy the value of {@code locked_by} for locks this node takes
     */
    public LockTable(DataSource dataSource, DatabasePlatform platform, ClusterTables tables, String lockedBy) {
        this.dataSource = dataSource;
        this.statements = SqlStatementsSource.create(configuration(dataSource, platform, tables, lockedBy));
        this.insert = new Statement(this.statements.getInsertStatement());
        this.update = new Statement(this.statements.getUpdateStatement());
        this.unlock = new Statement(this.statements.getUnlockStatement());
        this.insertPassesOverConflicts = platform.dialect().insertsPassOverConflicts();
    }

    /**
     * Returns ShedLock's configuration of dsched's table: the table name, this node, database time.
     * @param dataSource dsched's DataSource
     * @param platform its database
     * @param tables the cluster's tables
     * @param lockedBy the value of {@code locked_by} for locks this node takes
     * @return the configuration, for ShedLock's provider too
     */
    public static JdbcTemplateLockProvider.Configuration configuration(
            DataSource dataSource, DatabasePlatform platform, ClusterTables tables, String lockedBy) {
        return JdbcTemplateLockProvider.Configuration.builder()
                .withJdbcTemplate(new org.springframework.jdbc.core.JdbcTemplate(dataSource))
                .withTableName(tables.table("dsched_lock"))
                .withLockedByValue(lockedBy)
                .withDatabaseProduct(platform.dialect().shedLockProduct())
                .usingDbTime()
                .build();
    }

    /**
     * Takes a lock if it is free, each statement committed on its own.
     * @param lock the lock
     * @return whether this node now holds it
     */
    public boolean lock(LockConfiguration lock) {
        return autocommit("take", lock, (connection) -> lock(connection, lock));
    }

    /**
     * Tells whether {@link #lockOn} can take locks: where the database's insert passes over a
     * duplicate (PostgreSQL's is an upsert, MySQL's an INSERT IGNORE; H2's fails).
     * @return {@code true} if it can
     */
    public boolean locksInTransactions() {
        return this.insertPassesOverConflicts;
    }

    /**
     * Takes a lock if it is free, inside a transaction the caller owns and commits.
     * @param connection the connection, inside a transaction
     * @param lock the lock
     * @return whether the transaction holds it
     * @throws SQLException if a statement fails
     */
    public boolean lockOn(Connection connection, LockConfiguration lock) throws SQLException {
        if (!this.insertPassesOverConflicts) {
            throw new UnsupportedOperationException("This database cannot take a lock inside another transaction");
        }
        return lock(connection, lock);
    }

    /**
     * Releases a lock this node holds, keeping it until its {@code lockAtLeastFor} has passed.
     * @param lock the lock, as it was taken
     */
    public void unlock(LockConfiguration lock) {
        autocommit("release", lock, (connection) -> this.unlock.execute(connection, this.statements.params(lock)));
    }

    /**
     * Releases locks this node holds inside a transaction the caller owns and commits, each kept
     * until its {@code lockAtLeastFor} has passed. A lock that another node took meanwhile (after
     * its {@code lockAtMostFor}) is left alone.
     * @param connection the connection, inside a transaction
     * @param locks the locks, as they were taken
     * @throws SQLException if a statement fails
     */
    public void unlockOn(Connection connection, List<LockConfiguration> locks) throws SQLException {
        if (!locks.isEmpty()) {
            // in name order, as the claims of fires take them: two transactions never wait in a circle
            this.unlock.executeBatch(
                    connection,
                    locks.stream()
                            .sorted(java.util.Comparator.comparing(LockConfiguration::getName))
                            .map(this.statements::params)
                            .toList());
        }
    }

    private <T> T autocommit(String action, LockConfiguration lock, Work<T> work) {
        try (Connection connection = this.dataSource.getConnection()) {
            if (!connection.getAutoCommit()) {
                connection.setAutoCommit(true);
            }
            return work.on(connection);
        } catch (SQLException ex) {
            throw new IllegalStateException(
                    "Could not " + action + " the lock '" + lock.getName() + "': " + ex.getMessage(), ex);
        }
    }

    /** Statements on a connection whose each statement commits on its own. */
    @FunctionalInterface
    private interface Work<T> {

        T on(Connection connection) throws SQLException;
    }

    private boolean lock(Connection connection, LockConfiguration lock) throws SQLException {
        Map<String, Object> params = this.statements.params(lock);
        // the row exists after a job's first run: one statement takes a free lock
        if (this.update.execute(connection, params) > 0) {
            return true;
        }
        try {
            return this.insert.execute(connection, params) > 0;
        } catch (SQLException ex) {
            if (!this.insertPassesOverConflicts
                    && ex.getSQLState() != null
                    && ex.getSQLState().startsWith("23")) {
                // the row exists and the lock is held
                return false;
            }
            throw ex;
        }
    }

    /** One of ShedLock's statements, its named parameters resolved once. */
    private static final class Statement {

        private final ParsedSql parsed;

        private final String sql;

        Statement(String namedSql) {
            this.parsed = NamedParameterUtils.parseSqlStatement(namedSql);
            this.sql = NamedParameterUtils.substituteNamedParameters(this.parsed, null);
        }

        int execute(Connection connection, Map<String, Object> params) throws SQLException {
            try (PreparedStatement statement = connection.prepareStatement(this.sql)) {
                bind(statement, params);
                return statement.executeUpdate();
            }
        }

        void executeBatch(Connection connection, List<Map<String, Object>> rows) throws SQLException {
            try (PreparedStatement statement = connection.prepareStatement(this.sql)) {
                for (Map<String, Object> params : rows) {
                    bind(statement, params);
                    statement.addBatch();
                }
                statement.executeBatch();
            }
        }

        private void bind(PreparedStatement statement, Map<String, Object> params) throws SQLException {
            Object[] values = NamedParameterUtils.buildValueArray(this.parsed, new MapSqlParameterSource(params), null);
            for (int i = 0; i < values.length; i++) {
                StatementCreatorUtils.setParameterValue(statement, i + 1, SqlTypeValue.TYPE_UNKNOWN, values[i]);
            }
        }
    }
}
