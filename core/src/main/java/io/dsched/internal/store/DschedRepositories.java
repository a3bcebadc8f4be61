package io.dsched.internal.store;

import javax.sql.DataSource;
import org.springframework.data.jdbc.core.JdbcAggregateOperations;
import org.springframework.data.jdbc.core.JdbcAggregateTemplate;
import org.springframework.data.jdbc.core.convert.DataAccessStrategy;
import org.springframework.data.jdbc.core.convert.DelegatingDataAccessStrategy;
import org.springframework.data.jdbc.core.convert.JdbcConverter;
import org.springframework.data.jdbc.core.convert.JdbcCustomConversions;
import org.springframework.data.jdbc.core.dialect.DialectResolver;
import org.springframework.data.jdbc.core.dialect.JdbcDialect;
import org.springframework.data.jdbc.core.mapping.JdbcMappingContext;
import org.springframework.data.jdbc.repository.config.JdbcConfiguration;
import org.springframework.data.jdbc.repository.support.JdbcRepositoryFactory;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;

/**
 * Builds dsched's Spring Data JDBC repositories on dsched's own DataSource.
 *
 * <p>They are created here rather than with {@code @EnableJdbcRepositories}, which would switch
 * off Spring Boot's auto-configured repositories of the application itself, and so that dsched
 * may live in a database other than the application's.
 */
public final class DschedRepositories {

    private final JdbcRepositoryFactory factory;

    private final JdbcAggregateTemplate aggregates;

    /**
     * Creates the repository infrastructure over a DataSource.
     * @param dataSource dsched's DataSource
     * @param platform its database
     */
    public DschedRepositories(DataSource dataSource, DatabasePlatform platform) {
        this(dataSource, platform, ClusterTables.DEFAULT);
    }

    /**
     * Creates the repository infrastructure over one cluster's tables: every statement the
     * repositories run, derived or declared, names that cluster's tables.
     * @param dataSource dsched's DataSource
     * @param platform its database
     * @param tables the cluster's tables
     */
    public DschedRepositories(DataSource dataSource, DatabasePlatform platform, ClusterTables tables) {
        NamedParameterJdbcTemplate operations = tables.named(dataSource);
        JdbcDialect dialect = DialectResolver.getDialect(operations.getJdbcOperations());
        JdbcCustomConversions conversions = JdbcConfiguration.createCustomConversions(
                dialect, platform.dialect().instantConverters());
        JdbcMappingContext context = JdbcMappingContext.forPlainIdentifiers();
        context.setSimpleTypeHolder(conversions.getSimpleTypeHolder());
        DelegatingDataAccessStrategy relations = new DelegatingDataAccessStrategy();
        JdbcConverter converter =
                JdbcConfiguration.createConverter(context, operations, relations, conversions, dialect);
        DataAccessStrategy strategy = JdbcConfiguration.createDataAccessStrategy(operations, converter, null, dialect);
        relations.setDelegate(strategy);
        this.aggregates = new JdbcAggregateTemplate(converter, strategy);
        this.factory = new JdbcRepositoryFactory(this.aggregates);
    }

    /**
     * Returns the repository of {@code dsched_execution}.
     * @return a new repository instance
     */
    public ExecutionRepository executions() {
        return this.factory.getRepository(ExecutionRepository.class);
    }

    /**
     * Returns the repository of {@code dsched_dead_letter}.
     * @return a new repository instance
     */
    public DeadLetterRepository deadLetters() {
        return this.factory.getRepository(DeadLetterRepository.class);
    }

    /**
     * Returns Spring Data JDBC's operations on dsched's tables, for queries built at run time.
     * @return the operations
     */
    public JdbcAggregateOperations aggregates() {
        return this.aggregates;
    }
}
