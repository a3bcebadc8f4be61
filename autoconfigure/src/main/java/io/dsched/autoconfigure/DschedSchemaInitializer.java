package io.dsched.autoconfigure;

import java.util.List;
import org.springframework.boot.jdbc.init.DataSourceScriptDatabaseInitializer;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.boot.sql.init.DatabaseInitializationSettings;

/**
 * Creates dsched's tables that are missing, in Spring Boot's way; its scripts create only what
 * does not exist and never drop a table or a row.
 */
public class DschedSchemaInitializer extends DataSourceScriptDatabaseInitializer {

    /**
     * Creates an initializer.
     * @param jdbc the database
     * @param mode when to initialize
     */
    public DschedSchemaInitializer(DschedJdbc jdbc, DatabaseInitializationMode mode) {
        super(jdbc.dataSource(), settings(jdbc, mode));
    }

    private static DatabaseInitializationSettings settings(DschedJdbc jdbc, DatabaseInitializationMode mode) {
        DatabaseInitializationSettings settings = new DatabaseInitializationSettings();
        settings.setSchemaLocations(List.of(jdbc.platform().schemaLocation()));
        settings.setMode(mode);
        settings.setContinueOnError(false);
        return settings;
    }
}
