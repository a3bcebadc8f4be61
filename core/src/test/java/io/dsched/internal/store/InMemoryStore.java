package io.dsched.internal.store;

import io.dsched.quartz.StartBacklog;
import java.util.UUID;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * dsched's tables in an H2 database in memory, for the engine's tests that need a store but not a
 * database server: the schema script, the repositories and the execution store, with no Spring
 * context. Each instance is a database of its own.
 */
public final class InMemoryStore {

    private final JdbcDataSource dataSource = new JdbcDataSource();

    private final ExecutionRepository executions;

    private final ExecutionStore store;

    /** Creates the database and its tables. */
    public InMemoryStore() {
        this.dataSource.setURL("jdbc:h2:mem:dsched" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        new ResourceDatabasePopulator(new ClassPathResource("io/dsched/store/schema-h2.sql")).execute(this.dataSource);
        DschedRepositories repositories = new DschedRepositories(this.dataSource, DatabasePlatform.H2);
        this.executions = repositories.executions();
        this.store = store(this.executions, repositories.deadLetters(), this.dataSource);
    }

    /** The database. */
    public JdbcDataSource dataSource() {
        return this.dataSource;
    }

    /** The repository of {@code dsched_execution}. */
    public ExecutionRepository executions() {
        return this.executions;
    }

    /**
     * Another execution store over the same tables, reached through the given DataSource.
     * @param dataSource the database, such as one that fails as the test chooses
     * @return the store; the caller closes it
     */
    public ExecutionStore storeOver(DataSource dataSource) {
        return store(
                this.executions,
                new DschedRepositories(this.dataSource, DatabasePlatform.H2).deadLetters(),
                dataSource);
    }

    /**
     * Another execution store over the same tables whose every statement, its repository's too,
     * goes through the given DataSource.
     * @param dataSource the database, such as one that fails as the test chooses
     * @return the store; the caller closes it
     */
    public ExecutionStore storeWhollyOver(DataSource dataSource) {
        DschedRepositories repositories = new DschedRepositories(dataSource, DatabasePlatform.H2);
        return store(repositories.executions(), repositories.deadLetters(), dataSource);
    }

    /** An execution store on H2 whose transactions and own statements go through the DataSource. */
    private static ExecutionStore store(
            ExecutionRepository executions, DeadLetterRepository deadLetters, DataSource dataSource) {
        return new ExecutionStore(
                executions,
                deadLetters,
                new TransactionTemplate(new DataSourceTransactionManager(dataSource)),
                dataSource,
                DatabasePlatform.H2,
                ClusterTables.DEFAULT,
                false,
                StartBacklog.NONE);
    }

    /** The execution store over it. */
    public ExecutionStore store() {
        return this.store;
    }
}
