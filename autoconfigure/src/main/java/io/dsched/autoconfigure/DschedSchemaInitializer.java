package io.dsched.autoconfigure;

import io.dsched.internal.store.SessionLock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import org.springframework.boot.jdbc.init.DataSourceScriptDatabaseInitializer;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.boot.sql.init.DatabaseInitializationSettings;
import org.springframework.core.io.ByteArrayResource;
import org.springframework.core.io.Resource;

/**
 * Creates dsched's tables that are missing, in Spring Boot's way; every statement of its scripts is
 * a {@code CREATE TABLE} or {@code CREATE INDEX ... IF NOT EXISTS}, so they never drop or alter a
 * table, an index or a row. Nodes that start at the same moment apply the
 * script one after the other, under a database lock: {@code CREATE ... IF NOT EXISTS} is not
 * safe when run concurrently. A cluster other than the default gets tables of its own: the script
 * is run with the cluster's table names (see {@link io.dsched.internal.store.ClusterTables}).
 */
public class DschedSchemaInitializer extends DataSourceScriptDatabaseInitializer {

    private static final Object IN_PROCESS_LOCK = new Object();

    /** How many times H2, which has no lock across connections, runs the script before giving up. */
    private static final int H2_RUNS = 5;

    private final DschedJdbc jdbc;

    /**
     * Creates an initializer.
     * @param jdbc the database
     * @param mode when to initialize
     */
    public DschedSchemaInitializer(DschedJdbc jdbc, DatabaseInitializationMode mode) {
        super(jdbc.dataSource(), settings(jdbc, mode));
        this.jdbc = jdbc;
    }

    private static DatabaseInitializationSettings settings(DschedJdbc jdbc, DatabaseInitializationMode mode) {
        DatabaseInitializationSettings settings = new DatabaseInitializationSettings();
        settings.setSchemaLocations(List.of(jdbc.platform().schemaLocation()));
        settings.setMode(mode);
        settings.setContinueOnError(false);
        return settings;
    }

    @Override
    protected void runScripts(Scripts scripts) {
        Charset encoding = (scripts.getEncoding() != null) ? scripts.getEncoding() : StandardCharsets.UTF_8;
        List<Resource> named = new ArrayList<>();
        for (Resource script : scripts) {
            try {
                String text = script.getContentAsString(encoding);
                named.add(new ByteArrayResource(
                        this.jdbc.tables().sql(text).getBytes(encoding), script.getDescription()));
            } catch (IOException ex) {
                throw new UncheckedIOException("Could not read " + script.getDescription(), ex);
            }
        }
        super.runScripts(new Scripts(named)
                .continueOnError(scripts.isContinueOnError())
                .separator(scripts.getSeparator())
                .encoding(encoding));
    }

    @Override
    public boolean initializeDatabase() {
        Optional<SessionLock> schemaLock = this.jdbc.platform().dialect().schemaLock();
        if (schemaLock.isEmpty()) {
            // no lock across connections (H2): nodes of one JVM take turns, and nodes of several
            // JVMs on one auto-server file run the script again, as it only creates what is
            // missing
            synchronized (IN_PROCESS_LOCK) {
                return initializeWithRetries();
            }
        }
        SessionLock lock = schemaLock.get();
        try (Connection connection = this.jdbc.dataSource().getConnection()) {
            execute(connection, lock.acquireSql(), lock.key());
            try {
                return super.initializeDatabase();
            } finally {
                execute(connection, lock.releaseSql(), lock.key());
            }
        } catch (SQLException ex) {
            throw new IllegalStateException(
                    "Could not lock the database to create dsched's tables: " + ex.getMessage(), ex);
        }
    }

    /**
     * Runs the script until it succeeds, a few times at most: two JVMs that start at once run it
     * side by side, and H2 fails a {@code CREATE ... IF NOT EXISTS} that races another's. Each run
     * waits a random while longer first, so that two runs that failed together do not race again.
     */
    private boolean initializeWithRetries() {
        for (int run = 1; ; run++) {
            try {
                return super.initializeDatabase();
            } catch (RuntimeException ex) {
                if (run == H2_RUNS) {
                    throw ex;
                }
                try {
                    Thread.sleep(ThreadLocalRandom.current().nextLong(50, 250) * run);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw ex;
                }
            }
        }
    }

    private static void execute(Connection connection, String sql, Object argument) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setObject(1, argument);
            try (ResultSet result = statement.executeQuery()) {
                result.next();
            }
        }
    }
}
