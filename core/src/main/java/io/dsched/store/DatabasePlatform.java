package io.dsched.store;

import java.sql.Connection;
import java.sql.JDBCType;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Locale;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.DataSourceUtils;

/**
 * The databases dsched runs on, each with its schema script.
 */
public enum DatabasePlatform {

    /** PostgreSQL 12 or later. */
    POSTGRESQL("postgresql"),
    /**
     * MariaDB 10.6 or later, which the tests run on; MySQL 8, expected to work with the same SQL,
     * not yet tested.
     */
    MYSQL("mysql"),
    /** H2 2.x, for local development and tests. */
    H2("h2");

    private final String id;

    DatabasePlatform(String id) {
        this.id = id;
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
     * Whether dsched's timestamp columns hold instants ({@code TIMESTAMP WITH TIME ZONE}) on this
     * platform, rather than UTC wall-clock times.
     * @return {@code true} for PostgreSQL and H2
     */
    public boolean storesInstants() {
        return this != MYSQL;
    }

    /**
     * Returns the value to bind for an instant in one of dsched's timestamp columns.
     * @param instant the instant
     * @return an {@link OffsetDateTime} in UTC, or a UTC {@link LocalDateTime} on MySQL
     */
    public Object bindable(Instant instant) {
        return storesInstants()
                ? OffsetDateTime.ofInstant(instant, ZoneOffset.UTC)
                : LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    /**
     * Returns the JDBC type of dsched's timestamp columns.
     * @return the type
     */
    public JDBCType timestampType() {
        return storesInstants() ? JDBCType.TIMESTAMP_WITH_TIMEZONE : JDBCType.TIMESTAMP;
    }

    /**
     * Returns the SQL expression of the database's current time in the form of dsched's
     * timestamp columns.
     * @return the expression
     */
    public String currentTimestampSql() {
        return storesInstants() ? "CURRENT_TIMESTAMP" : "UTC_TIMESTAMP(3)";
    }

    /**
     * Returns the SQL expression of the database's current time in the form ShedLock keeps in
     * {@code dsched_lock} (UTC without a zone, as its JDBC provider writes with database time).
     * @return the expression
     */
    public String lockClockSql() {
        return switch (this) {
            case POSTGRESQL -> "timezone('utc', CURRENT_TIMESTAMP)";
            case MYSQL -> "UTC_TIMESTAMP(3)";
            case H2 -> "CURRENT_TIMESTAMP(3)";
        };
    }

    /**
     * Reads one of dsched's timestamp columns, or {@link #currentTimestampSql()}, as an instant.
     * @param resultSet the result set
     * @param column the column label
     * @return the instant, or {@code null}
     * @throws SQLException if the column cannot be read
     */
    public Instant readInstant(ResultSet resultSet, String column) throws SQLException {
        if (storesInstants()) {
            OffsetDateTime value = resultSet.getObject(column, OffsetDateTime.class);
            return (value != null) ? value.toInstant() : null;
        }
        LocalDateTime value = resultSet.getObject(column, LocalDateTime.class);
        return (value != null) ? value.toInstant(ZoneOffset.UTC) : null;
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
