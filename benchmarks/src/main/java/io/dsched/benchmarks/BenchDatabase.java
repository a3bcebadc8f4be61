package io.dsched.benchmarks;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;

/**
 * The database every contestant of a run shares, and the pools the benchmark opens on it.
 * @param url the JDBC URL
 * @param user the user
 * @param password the password
 */
public record BenchDatabase(String url, String user, String password) {

    /**
     * Reads the database from the system properties {@code bench.db.url}, {@code bench.db.user}
     * and {@code bench.db.password}.
     * @return the database
     */
    public static BenchDatabase fromSystemProperties() {
        return new BenchDatabase(
                System.getProperty("bench.db.url"),
                System.getProperty("bench.db.user", ""),
                System.getProperty("bench.db.password", ""));
    }

    /**
     * Tells whether the database is PostgreSQL.
     * @return {@code true} for PostgreSQL
     */
    public boolean isPostgres() {
        return this.url.startsWith("jdbc:postgresql:");
    }

    /**
     * Tells whether the database is MariaDB or MySQL.
     * @return {@code true} for MariaDB or MySQL
     */
    public boolean isMysql() {
        return this.url.startsWith("jdbc:mariadb:") || this.url.startsWith("jdbc:mysql:");
    }

    /**
     * Returns the kind of database, as {@code postgresql} or {@code mariadb}.
     * @return the kind
     */
    public String kind() {
        return isPostgres() ? "postgresql" : "mariadb";
    }

    /**
     * Connections of a node's pool beyond its worker threads, the same for every contestant: as
     * many as the neediest asks for (dsched's node: its scheduler, claim poller, heartbeat,
     * check-in and misfire handler, and housekeeping; Quartz's docs ask for three).
     */
    public static final int POOL_HEADROOM = 6;

    /**
     * Opens the connection pool of one node of any contestant: {@code threads +} {@value
     * #POOL_HEADROOM} connections. The job bodies write through a pool of their own ({@link Probe}).
     * @param name the pool's name
     * @param threads the node's worker threads
     * @return the pool; close it when done
     */
    public HikariDataSource nodePool(String name, int threads) {
        return pool(name, threads + POOL_HEADROOM);
    }

    /**
     * Opens a connection pool.
     * @param name the pool's name
     * @param size its size
     * @return the pool; close it when done
     */
    public HikariDataSource pool(String name, int size) {
        HikariConfig config = new HikariConfig();
        config.setPoolName(name);
        config.setJdbcUrl(this.url);
        config.setUsername(this.user);
        config.setPassword(this.password);
        config.setMaximumPoolSize(size);
        config.setMinimumIdle(Math.min(size, 2));
        return new HikariDataSource(config);
    }

    /**
     * Gives PostgreSQL the statistics of the tables the contestant has just filled, as its
     * autovacuum would within a minute or so. Without them the planner takes a freshly created table
     * for a tiny one and may read a whole group of a thousand jobs through the index on groups for
     * a lookup by primary key, in every contestant's statements alike, until autovacuum happens to
     * run in the middle of a measurement. InnoDB keeps its statistics up to date on its own.
     */
    public void analyze() {
        if (!isPostgres()) {
            return;
        }
        try (HikariDataSource pool = pool("bench-analyze", 1);
                Connection connection = pool.getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute("ANALYZE");
        } catch (SQLException ex) {
            throw new IllegalStateException(ex);
        }
    }

    /**
     * Brings the database to the same state before every run, once every contestant's tables are
     * dropped: on PostgreSQL {@code VACUUM ANALYZE} and a {@code CHECKPOINT}, so that no run pays for
     * the dead rows, the statistics or the dirty pages of the one before; on MariaDB it waits until
     * InnoDB's purge has caught up (its history list is short), at most {@code atMost}.
     * @param atMost how long to wait for MariaDB's purge at most
     * @return what it did, for the progress log
     */
    public String settle(java.time.Duration atMost) {
        try (HikariDataSource pool = pool("bench-settle", 1);
                Connection connection = pool.getConnection();
                Statement statement = connection.createStatement()) {
            if (!isPostgres()) {
                return awaitPurge(statement, atMost);
            }
            statement.execute("VACUUM ANALYZE");
            try {
                statement.execute("CHECKPOINT");
                return "VACUUM ANALYZE, CHECKPOINT";
            } catch (SQLException ex) {
                // CHECKPOINT wants a superuser or pg_checkpoint: the run goes on, and says so
                return "VACUUM ANALYZE (CHECKPOINT refused: " + ex.getMessage() + ")";
            }
        } catch (SQLException ex) {
            throw new IllegalStateException(ex);
        }
    }

    /**
     * Removes the dead rows a statement of the coordinator's has just left in a table, as a fresh
     * database has none: on PostgreSQL {@code VACUUM ANALYZE} of the table, on MariaDB a wait for
     * InnoDB's purge, at most {@code atMost}.
     * @param table the table
     * @param atMost how long to wait for MariaDB's purge at most
     * @return what it did, for the progress log
     */
    public String vacuum(String table, java.time.Duration atMost) {
        try (HikariDataSource pool = pool("bench-vacuum", 1);
                Connection connection = pool.getConnection();
                Statement statement = connection.createStatement()) {
            if (!isPostgres()) {
                return awaitPurge(statement, atMost);
            }
            statement.execute("VACUUM ANALYZE " + table);
            return "VACUUM ANALYZE " + table;
        } catch (SQLException ex) {
            throw new IllegalStateException(ex);
        }
    }

    private static String awaitPurge(Statement statement, java.time.Duration atMost) throws SQLException {
        long deadline = System.nanoTime() + atMost.toNanos();
        long length = historyLength(statement);
        while (length > PURGED && System.nanoTime() < deadline) {
            Harness.pause(500);
            length = historyLength(statement);
        }
        if (length < 0) {
            return "InnoDB history list length unknown (no PROCESS privilege, or its metric disabled):"
                    + " purge not awaited";
        }
        return "InnoDB history list length " + length + (length > PURGED ? " (purge not done in time)" : "");
    }

    /** The InnoDB history list length at which the purge counts as done. */
    private static final long PURGED = 100;

    /**
     * InnoDB's history list length: undo records the purge has yet to remove, from {@code SHOW
     * ENGINE INNODB STATUS}, else (without the privilege it needs) from MariaDB's {@code
     * INNODB_METRICS}; -1 when neither can be read.
     */
    private static long historyLength(Statement statement) throws SQLException {
        try (var rows = statement.executeQuery("SHOW ENGINE INNODB STATUS")) {
            if (rows.next()) {
                java.util.regex.Matcher length = java.util.regex.Pattern.compile("History list length (\\d+)")
                        .matcher(rows.getString("Status"));
                if (length.find()) {
                    return Long.parseLong(length.group(1));
                }
            }
        } catch (SQLException ex) {
            // no PROCESS privilege
        }
        try (var rows = statement.executeQuery("SELECT `COUNT` FROM information_schema.INNODB_METRICS"
                + " WHERE NAME = 'trx_rseg_history_len' AND ENABLED = 1")) {
            return rows.next() ? rows.getLong(1) : -1;
        } catch (SQLException ex) {
            return -1;
        }
    }

    /**
     * Runs statements, ignoring those that fail (for {@code DROP TABLE} of tables that may not be
     * there).
     * @param statements the statements
     */
    public void executeIgnoringErrors(List<String> statements) {
        try (HikariDataSource pool = pool("bench-ddl", 1);
                Connection connection = pool.getConnection();
                Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                try {
                    statement.execute(sql);
                } catch (SQLException ex) {
                    // the table was not there
                }
            }
        } catch (SQLException ex) {
            throw new IllegalStateException(ex);
        }
    }

    /**
     * Drops every table whose name starts with a prefix, case-insensitively.
     * @param prefix such as {@code qrtz_}
     */
    public void dropTablesStartingWith(String prefix) {
        String like = prefix.toLowerCase(Locale.ROOT) + "%";
        String query = isPostgres()
                ? "SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND lower(tablename) LIKE ?"
                : "SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE()"
                        + " AND lower(table_name) LIKE ?";
        try (HikariDataSource pool = pool("bench-drop", 1);
                Connection connection = pool.getConnection()) {
            for (int round = 0; round < 5; round++) {
                List<String> tables = new java.util.ArrayList<>();
                try (var select = connection.prepareStatement(query)) {
                    select.setString(1, like.replace("_", "\\_"));
                    try (var rows = select.executeQuery()) {
                        while (rows.next()) {
                            tables.add(rows.getString(1));
                        }
                    }
                }
                if (tables.isEmpty()) {
                    return;
                }
                try (Statement statement = connection.createStatement()) {
                    if (isMysql()) {
                        statement.execute("SET FOREIGN_KEY_CHECKS = 0");
                    }
                    for (String table : tables) {
                        String quoted = isPostgres() ? "\"" + table + "\"" : "`" + table + "`";
                        statement.execute("DROP TABLE IF EXISTS " + quoted + (isPostgres() ? " CASCADE" : ""));
                    }
                    if (isMysql()) {
                        statement.execute("SET FOREIGN_KEY_CHECKS = 1");
                    }
                }
            }
        } catch (SQLException ex) {
            throw new IllegalStateException(ex);
        }
    }
}
