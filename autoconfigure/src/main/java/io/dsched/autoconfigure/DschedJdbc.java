package io.dsched.autoconfigure;

import io.dsched.internal.store.ClusterTables;
import io.dsched.internal.store.DatabasePlatform;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The database dsched keeps its state in.
 *
 * @param dataSource the DataSource, the {@link DschedDataSource} one or else the application's
 * @param platform its platform
 * @param tables the names of the cluster's tables in it
 */
public record DschedJdbc(DataSource dataSource, DatabasePlatform platform, ClusterTables tables) {

    /**
     * The database of the default cluster's tables.
     * @param dataSource the DataSource
     * @param platform its platform
     */
    public DschedJdbc(DataSource dataSource, DatabasePlatform platform) {
        this(dataSource, platform, ClusterTables.DEFAULT);
    }

    /**
     * Returns a template for transactions on this database.
     * @return a new template
     */
    public TransactionTemplate transactions() {
        return new TransactionTemplate(new DataSourceTransactionManager(this.dataSource));
    }
}
