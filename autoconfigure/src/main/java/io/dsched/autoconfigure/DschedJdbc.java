package io.dsched.autoconfigure;

import io.dsched.store.DatabasePlatform;
import javax.sql.DataSource;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The database dsched keeps its state in.
 *
 * @param dataSource the DataSource, the {@link DschedDataSource} one or else the application's
 * @param platform its platform
 */
public record DschedJdbc(DataSource dataSource, DatabasePlatform platform) {

    /**
     * Returns a template for transactions on this database.
     * @return a new template
     */
    public TransactionTemplate transactions() {
        return new TransactionTemplate(new DataSourceTransactionManager(this.dataSource));
    }
}
