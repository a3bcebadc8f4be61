package io.dsched.internal.engine;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import org.quartz.utils.ConnectionProvider;

/**
 * Hands Quartz connections from a Spring-managed DataSource. Quartz's shutdown does not close
 * the DataSource: Spring owns it.
 */
final class DataSourceConnectionProvider implements ConnectionProvider {

    private final DataSource dataSource;

    DataSourceConnectionProvider(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    @Override
    public Connection getConnection() throws SQLException {
        return this.dataSource.getConnection();
    }

    @Override
    public void shutdown() {}

    @Override
    public void initialize() {}
}
