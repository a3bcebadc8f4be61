package io.dsched.autoconfigure;

import io.dsched.store.DatabasePlatform;
import javax.sql.DataSource;

/**
 * The database dsched keeps its state in.
 *
 * @param dataSource the DataSource, the {@link DschedDataSource} one or else the application's
 * @param platform its platform
 */
public record DschedJdbc(DataSource dataSource, DatabasePlatform platform) {}
