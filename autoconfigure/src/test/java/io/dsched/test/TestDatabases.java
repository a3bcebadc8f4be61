package io.dsched.test;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Locale;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.mariadb.MariaDBContainer;
import org.testcontainers.postgresql.PostgreSQLContainer;

/**
 * Decides where a test's database server comes from, in this order:
 *
 * <ol>
 *   <li>{@code DSCHED_TEST_POSTGRES_URL} / {@code DSCHED_TEST_MARIADB_URL} with {@code _USER} and
 *       {@code _PASSWORD}, when set (CI sets them to servers on localhost);
 *   <li>for MariaDB, a server on localhost's default port (3306) that lets {@code root} in without a
 *       password, on its database {@code test} (created if it is missing);
 *   <li>Testcontainers, when a Docker engine answers;
 *   <li>PostgreSQL from embedded binaries; MariaDB tests are skipped with the reason.
 * </ol>
 *
 * Each call gives the test a fresh schema or database of its own on that server. A test that
 * cannot have one is skipped with the reason, or fails in CI (see {@link Prerequisites}).
 */
public final class TestDatabases {

    private static final Logger logger = LoggerFactory.getLogger(TestDatabases.class);

    private static Server postgres;

    private static Server mariadb;

    /** The MariaDB server a developer's machine usually has, as CI sets it up. */
    static final String LOCAL_MARIADB = "jdbc:mariadb://localhost:3306/test";

    private static final String LOCAL_MARIADB_USER = "root";

    private TestDatabases() {}

    /** The kinds of database the tests run on. */
    public enum Kind {
        /** PostgreSQL. */
        POSTGRESQL,
        /** MariaDB (standing for MySQL too). */
        MARIADB,
        /** H2 in memory. */
        H2
    }

    /**
     * Creates a fresh database of a kind, or skips the test with the reason none can be had.
     * @param kind the kind
     * @return the database; close it to drop it
     */
    public static TestDatabase create(Kind kind) {
        String name = "dsched_t" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        return switch (kind) {
            case H2 -> new TestDatabase(kind, "jdbc:h2:mem:" + name + ";DB_CLOSE_DELAY=-1", "sa", "", null, null);
            case POSTGRESQL -> {
                Server server = postgres();
                execute(server.url, server.username, server.password, "CREATE SCHEMA " + name);
                yield new TestDatabase(
                        kind,
                        withParameter(server.url, "currentSchema=" + name),
                        server.username,
                        server.password,
                        "DROP SCHEMA " + name + " CASCADE",
                        server.url);
            }
            case MARIADB -> {
                Server server = mariadb();
                execute(server.url, server.username, server.password, "CREATE DATABASE " + name);
                yield new TestDatabase(
                        kind,
                        withDatabase(server.url, name),
                        server.username,
                        server.password,
                        "DROP DATABASE " + name,
                        server.url);
            }
        };
    }

    private static synchronized Server postgres() {
        if (postgres == null) {
            postgres = fromEnvironment("POSTGRES");
        }
        if (postgres == null && dockerAvailable()) {
            PostgreSQLContainer container = new PostgreSQLContainer("postgres:16-alpine");
            container.start();
            postgres = new Server(container.getJdbcUrl(), container.getUsername(), container.getPassword());
        }
        if (postgres == null) {
            postgres = embeddedPostgres();
        }
        return postgres;
    }

    private static synchronized Server mariadb() {
        if (mariadb == null) {
            mariadb = fromEnvironment("MARIADB");
        }
        if (mariadb == null) {
            mariadb = localMariadb();
        }
        if (mariadb == null && dockerAvailable()) {
            MariaDBContainer container = new MariaDBContainer("mariadb:11");
            container.start();
            mariadb = new Server(container.getJdbcUrl(), "root", container.getPassword());
        }
        Prerequisites.require(
                mariadb != null,
                "No MariaDB server: DSCHED_TEST_MARIADB_URL is not set, none answers on localhost:3306 as root"
                        + " without a password, and no Docker engine answers (install mariadb-server, or set"
                        + " DSCHED_TEST_MARIADB_URL with _USER and _PASSWORD)");
        return mariadb;
    }

    private static Server fromEnvironment(String name) {
        String url = System.getenv("DSCHED_TEST_" + name + "_URL");
        if (url == null || url.isBlank()) {
            return null;
        }
        return new Server(
                url,
                System.getenv().getOrDefault("DSCHED_TEST_" + name + "_USER", ""),
                System.getenv().getOrDefault("DSCHED_TEST_" + name + "_PASSWORD", ""));
    }

    /**
     * Looks for a MariaDB server on localhost's default port, as a developer's machine has one, and
     * creates its database {@code test} if it is missing.
     * @return the server, or {@code null} if none answers there
     */
    private static Server localMariadb() {
        String probe = "?connectTimeout=2000";
        try (Connection connection =
                DriverManager.getConnection("jdbc:mariadb://localhost:3306/" + probe, LOCAL_MARIADB_USER, "")) {
            try (Statement statement = connection.createStatement()) {
                statement.execute("CREATE DATABASE IF NOT EXISTS test");
            }
            logger.info("DSCHED_TEST_MARIADB_URL is not set: the MariaDB tests use the server on localhost:3306");
            return new Server(LOCAL_MARIADB, LOCAL_MARIADB_USER, "");
        } catch (SQLException ex) {
            logger.info("No MariaDB server answers on localhost:3306 as root: {}", ex.getMessage());
            return null;
        }
    }

    private static boolean dockerAvailable() {
        try {
            return DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException ex) {
            return false;
        }
    }

    private static Server embeddedPostgres() {
        try {
            EmbeddedPostgres embedded = EmbeddedPostgres.builder().start();
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                try {
                    embedded.close();
                } catch (IOException ex) {
                    logger.debug("Could not stop embedded PostgreSQL", ex);
                }
            }));
            return new Server(embedded.getJdbcUrl("postgres", "postgres"), "postgres", "");
        } catch (IOException | RuntimeException ex) {
            throw Prerequisites.missing("No PostgreSQL server: DSCHED_TEST_POSTGRES_URL is not set, no Docker engine"
                    + " answers, and embedded PostgreSQL could not start (" + ex.getMessage() + ")");
        }
    }

    static void execute(String url, String username, String password, String sql) {
        try (Connection connection = DriverManager.getConnection(url, username, password);
                Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException ex) {
            throw new IllegalStateException("Could not run '" + sql + "' on " + url + ": " + ex.getMessage(), ex);
        }
    }

    private static String withParameter(String url, String parameter) {
        return url + (url.contains("?") ? "&" : "?") + parameter;
    }

    private static String withDatabase(String url, String database) {
        int query = url.indexOf('?');
        String base = (query >= 0) ? url.substring(0, query) : url;
        String parameters = (query >= 0) ? url.substring(query) : "";
        int slash = base.indexOf('/', base.indexOf("//") + 2);
        String host = (slash >= 0) ? base.substring(0, slash) : base;
        return host + "/" + database.toLowerCase(Locale.ROOT) + parameters;
    }

    private record Server(String url, String username, String password) {}
}
