package io.dsched.internal.store;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.DataSourceUtils;

/**
 * The databases dsched runs on, each with its schema script and its {@link SqlDialect}.
 */
public enum DatabasePlatform {

    /** PostgreSQL 12 or later. */
    POSTGRESQL("postgresql", new PostgresDialect()),
    /**
     * MariaDB 10.6 or later, which the tests run on; MySQL 8, expected to work with the same SQL,
     * not yet tested.
     */
    MYSQL("mysql", new MySqlDialect()),
    /** H2 2.x, for local development and tests. */
    H2("h2", new H2Dialect());

    private final String id;

    private final SqlDialect dialect;

    DatabasePlatform(String id, SqlDialect dialect) {
        this.id = id;
        this.dialect = dialect;
    }

    /**
     * Returns the platform's id, as used in {@code dsched.jdbc.platform} and script names.
     * @return the id
     */
    public String id() {
        return this.id;
    }

    /**
     * Returns where the schema script of this platform lies on the class path.
     * @return a {@code classpath:} location
     */
    public String schemaLocation() {
        return "classpath:io/dsched/store/schema-" + this.id + ".sql";
    }

    /**
     * Returns the SQL dialect of this platform, the one place for what differs between databases.
     * @return the dialect, the same instance every time
     */
    public SqlDialect dialect() {
        return this.dialect;
    }

    /**
     * Finds a platform by id.
     * @param id {@code postgresql}, {@code mysql}, {@code mariadb} or {@code h2}
     * @return the platform
     * @throws IllegalArgumentException for any other id
     */
    public static DatabasePlatform of(String id) {
        String key = id.trim().toLowerCase(Locale.ROOT);
        if (key.equals("mariadb")) {
            return MYSQL;
        }
        for (DatabasePlatform platform : values()) {
            if (platform.id.equals(key)) {
                return platform;
            }
        }
        throw new IllegalArgumentException(
                "Unknown dsched.jdbc.platform '" + id + "'; use postgresql, mysql, mariadb or h2");
    }

    /**
     * Detects the platform of a DataSource from its connection's metadata.
     * @param dataSource the DataSource
     * @return the platform
     * @throws IllegalStateException if the database is not one dsched supports
     */
    public static DatabasePlatform detect(DataSource dataSource) {
        Connection connection = DataSourceUtils.getConnection(dataSource);
        try {
            String product = connection.getMetaData().getDatabaseProductName();
            String name = product.toLowerCase(Locale.ROOT);
            if (name.contains("postgres")) {
                return POSTGRESQL;
            }
            if (name.contains("mysql") || name.contains("mariadb")) {
                return MYSQL;
            }
            if (name.equals("h2")) {
                return H2;
            }
            throw new IllegalStateException("dsched runs on PostgreSQL, MySQL, MariaDB or H2, but the DataSource is "
                    + product + "; point dsched at a supported database with a @DschedDataSource bean");
        } catch (SQLException ex) {
            throw new IllegalStateException(
                    "Could not detect the database of dsched's DataSource: " + ex.getMessage(), ex);
        } finally {
            DataSourceUtils.releaseConnection(connection, dataSource);
        }
    }
}
