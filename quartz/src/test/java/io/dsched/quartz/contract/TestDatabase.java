package io.dsched.quartz.contract;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Assumptions;

/**
 * A database of the contract suite: H2 in memory, or PostgreSQL and MariaDB from the variables
 * {@code DSCHED_TEST_POSTGRES_URL} and {@code DSCHED_TEST_MARIADB_URL} (with {@code _USER} and
 * {@code _PASSWORD}). Without its variable a suite is skipped with the reason, and fails when
 * {@code CI=true}. Quartz's own table scripts, read from the Quartz jar, create the tables under a
 * prefix of the suite's; each test runs a scheduler (cluster) of its own name on them.
 */
final class TestDatabase {

    /** The databases the suite runs on. */
    enum Kind {
        H2("tables_h2.sql", "org.h2.Driver"),
        POSTGRES("tables_postgres.sql", "org.postgresql.Driver"),
        MARIADB("tables_mysql_innodb.sql", "org.mariadb.jdbc.Driver");

        private final String script;

        private final String driver;

        Kind(String script, String driver) {
            this.script = script;
            this.driver = driver;
        }
    }

    private static final Set<String> CREATED = ConcurrentHashMap.newKeySet();

    private static final List<String> TABLES = List.of(
            "FIRED_TRIGGERS",
            "PAUSED_TRIGGER_GRPS",
            "SCHEDULER_STATE",
            "LOCKS",
            "SIMPLE_TRIGGERS",
            "CRON_TRIGGERS",
            "SIMPROP_TRIGGERS",
            "BLOB_TRIGGERS",
            "TRIGGERS",
            "JOB_DETAILS",
            "CALENDARS");

    final Kind kind;

    final String url;

    final String user;

    final String password;

    private TestDatabase(Kind kind, String url, String user, String password) {
        this.kind = kind;
        this.url = url;
        this.user = user;
        this.password = password;
    }

    /**
     * Returns a database of a kind, or skips (fails, in CI) the test with the reason none is set.
     * @param kind the kind
     * @return the database
     */
    static TestDatabase of(Kind kind) {
        return switch (kind) {
            case H2 -> new TestDatabase(kind, "jdbc:h2:mem:quartz-contract;DB_CLOSE_DELAY=-1", "sa", "");
            case POSTGRES -> fromEnvironment(kind, "POSTGRES");
            case MARIADB -> fromEnvironment(kind, "MARIADB");
        };
    }

    private static TestDatabase fromEnvironment(Kind kind, String name) {
        String url = System.getenv("DSCHED_TEST_" + name + "_URL");
        if (url == null || url.isBlank()) {
            String reason = "No " + kind + " server: set DSCHED_TEST_" + name + "_URL (with _USER and _PASSWORD)";
            if ("true".equals(System.getenv("CI"))) {
                fail(reason + "; with CI=true a suite without its database fails");
            }
            Assumptions.abort(reason);
        }
        return new TestDatabase(
                kind,
                url,
                System.getenv().getOrDefault("DSCHED_TEST_" + name + "_USER", ""),
                System.getenv().getOrDefault("DSCHED_TEST_" + name + "_PASSWORD", ""));
    }

    String driver() {
        return this.kind.driver;
    }

    Connection connect() throws SQLException {
        return DriverManager.getConnection(this.url, this.user, this.password);
    }

    /**
     * Creates Quartz's tables under a prefix with Quartz's own script for the database, once.
     * @param prefix the prefix, in place of {@code QRTZ_}
     */
    void createTables(String prefix) {
        if (!CREATED.add(this.url + "|" + prefix)) {
            return;
        }
        try (Connection conn = connect();
                Statement statement = conn.createStatement()) {
            try {
                statement
                        .executeQuery("SELECT COUNT(*) FROM " + prefix + "LOCKS")
                        .close();
                return;
            } catch (SQLException missing) {
                // first run on this database
            }
            for (String sql : script(prefix)) {
                statement.execute(sql);
            }
        } catch (SQLException | IOException ex) {
            CREATED.remove(this.url + "|" + prefix);
            throw new IllegalStateException(
                    "Could not create Quartz's tables on " + this.url + ": " + ex.getMessage(), ex);
        }
    }

    private List<String> script(String prefix) throws IOException {
        String text;
        try (InputStream in = TestDatabase.class
                .getClassLoader()
                .getResourceAsStream("org/quartz/impl/jdbcjobstore/" + this.kind.script)) {
            text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        StringBuilder kept = new StringBuilder();
        for (String line : text.split("\n")) {
            String trimmed = line.trim();
            if (!trimmed.startsWith("--") && !trimmed.startsWith("#")) {
                kept.append(line).append('\n');
            }
        }
        List<String> statements = new ArrayList<>();
        for (String sql : kept.toString().split(";")) {
            String statement = sql.trim().replace("QRTZ_", prefix).replace("qrtz_", prefix);
            String upper = statement.toUpperCase(Locale.ROOT);
            if (!statement.isEmpty() && !upper.startsWith("DROP") && !upper.equals("COMMIT")) {
                statements.add(statement);
            }
        }
        return statements;
    }

    /**
     * Deletes every row of a scheduler from the tables.
     * @param prefix the tables' prefix
     * @param scheduler the scheduler's name
     */
    void deleteRows(String prefix, String scheduler) {
        try (Connection conn = connect()) {
            for (String table : TABLES) {
                try (PreparedStatement delete =
                        conn.prepareStatement("DELETE FROM " + prefix + table + " WHERE SCHED_NAME = ?")) {
                    delete.setString(1, scheduler);
                    delete.executeUpdate();
                }
            }
        } catch (SQLException ex) {
            throw new IllegalStateException("Could not delete the rows of " + scheduler + ": " + ex.getMessage(), ex);
        }
    }

    /**
     * Counts the sessions waiting for a row lock in a statement on tables of a prefix.
     * @param conn a connection of the test's
     * @param prefix the tables' prefix
     * @return how many wait
     */
    int sessionsWaitingForALock(Connection conn, String prefix) throws SQLException {
        String sql =
                switch (this.kind) {
                    case POSTGRES ->
                        "SELECT COUNT(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                                + " AND datname = current_database() AND UPPER(query) LIKE ?";
                    case MARIADB ->
                        "SELECT COUNT(*) FROM information_schema.INNODB_TRX"
                                + " WHERE trx_state = 'LOCK WAIT' AND UPPER(trx_query) LIKE ?";
                    case H2 ->
                        "SELECT COUNT(*) FROM INFORMATION_SCHEMA.SESSIONS"
                                + " WHERE BLOCKER_ID IS NOT NULL AND UPPER(EXECUTING_STATEMENT) LIKE ?";
                };
        try (PreparedStatement statement = conn.prepareStatement(sql)) {
            statement.setString(1, "%" + prefix.toUpperCase(Locale.ROOT) + "%");
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getInt(1);
            }
        }
    }

    @Override
    public String toString() {
        return this.kind.name();
    }
}
