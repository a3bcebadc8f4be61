package io.dsched.test;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A database a test may use on its own: a fresh schema (PostgreSQL), a fresh database (MariaDB)
 * or a fresh in-memory database (H2), dropped when the test closes it.
 *
 * @param kind the kind of server
 * @param url JDBC URL of the fresh schema or database
 * @param username user
 * @param password password
 * @param dropSql statement that drops the schema or database, run on {@code adminUrl}
 * @param adminUrl JDBC URL to run {@code dropSql} on
 */
public record TestDatabase(
        TestDatabases.Kind kind, String url, String username, String password, String dropSql, String adminUrl)
        implements AutoCloseable {

    /**
     * Returns the Spring Boot properties that point an application at this database.
     * @return {@code spring.datasource.*} properties
     */
    public Map<String, Object> springProperties() {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("spring.datasource.url", this.url);
        properties.put("spring.datasource.username", this.username);
        properties.put("spring.datasource.password", (this.password != null) ? this.password : "");
        properties.put("spring.datasource.hikari.maximum-pool-size", "12");
        // a node opens connections as it needs them, not twelve at its start: a suite of six nodes,
        // beside the suites of the other test JVMs, stays within the database's connections
        properties.put("spring.datasource.hikari.minimum-idle", "2");
        properties.put("dsched.jdbc.initialize-schema", "always");
        return properties;
    }

    /**
     * Opens a small pool on this database.
     * @return a DataSource the caller closes
     */
    public HikariDataSource newDataSource() {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(this.url);
        config.setUsername(this.username);
        config.setPassword(this.password);
        config.setMaximumPoolSize(12);
        // like a node's pool: connections as the observer needs them, not twelve per test at once
        config.setMinimumIdle(2);
        return new HikariDataSource(config);
    }

    @Override
    public void close() {
        if (this.dropSql == null) {
            return;
        }
        TestDatabases.execute(this.adminUrl, this.username, this.password, this.dropSql);
    }
}
