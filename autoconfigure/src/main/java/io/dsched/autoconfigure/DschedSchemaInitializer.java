package io.dsched.autoconfigure;

import io.dsched.store.DatabasePlatform;
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
 * is run with the cluster's table names (see {@link io.dsched.store.ClusterTables}).
 */
public class DschedSchemaInitializer extends DataSourceScriptDatabaseInitializer {

    private static final long POSTGRES_LOCK = 0x64736368L;

    private static final String MYSQL_LOCK = "dsched.schema";

    private static final Object H2_LOCK = new Object();

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
        if (this.jdbc.platform() == DatabasePlatform.H2) {
            // H2 has no lock across connections: nodes of one JVM take turns, and nodes of
            // several JVMs on one auto-server file run the script again, as it only creates
            // what is missing
            synchronized (H2_LOCK) {
                try {
                    return super.initializeDatabase();
                } catch (RuntimeException ex) {
                    return super.initializeDatabase();
                }
            }
        }
        try (Connection lock = this.jdbc.dataSource().getConnection()) {
            acquire(lock);
            try {
                return super.initializeDatabase();
            } finally {
                release(lock);
            }
        } catch (SQLException ex) {
            throw new IllegalStateException(
                    "Could not lock the database to create dsched's tables: " + ex.getMessage(), ex);
        }
    }

    private void acquire(Connection connection) throws SQLException {
        if (this.jdbc.platform() == DatabasePlatform.POSTGRESQL) {
            execute(connection, "SELECT pg_advisory_lock(?)", POSTGRES_LOCK);
        } else {
            execute(connection, "SELECT GET_LOCK(?, 300)", MYSQL_LOCK);
        }
    }

    private void release(Connection connection) throws SQLException {
        if (this.jdbc.platform() == DatabasePlatform.POSTGRESQL) {
            execute(connection, "SELECT pg_advisory_unlock(?)", POSTGRES_LOCK);
        } else {
            execute(connection, "SELECT RELEASE_LOCK(?)", MYSQL_LOCK);
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
