package io.dsched.autoconfigure;

import io.dsched.annotation.DistributedScheduledBeanPostProcessor;
import io.dsched.definition.JobRegistry;
import io.dsched.engine.DschedEngine;
import io.dsched.engine.FireDispatcher;
import io.dsched.engine.JobSynchronizer;
import io.dsched.engine.NodeId;
import io.dsched.engine.QuartzSettings;
import io.dsched.execution.FireExecutor;
import io.dsched.execution.JobGuard;
import io.dsched.store.DatabasePlatform;
import io.dsched.store.DschedRepositories;
import io.dsched.store.ExecutionRepository;
import io.dsched.store.ExecutionStore;
import io.dsched.store.JobDefinitionStore;
import java.time.Clock;
import javax.sql.DataSource;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.provider.jdbctemplate.JdbcTemplateLockProvider;
import org.quartz.SchedulerException;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Role;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.util.StringUtils;

/**
 * Auto-configuration of dsched: runs {@code @DistributedScheduled} methods once per fire across
 * every node that shares the database.
 */
@AutoConfiguration(after = DataSourceAutoConfiguration.class)
@ConditionalOnProperty(prefix = "dsched", name = "enabled", havingValue = "true", matchIfMissing = true)
@EnableConfigurationProperties(DschedProperties.class)
public final class DschedAutoConfiguration {

    private static final Clock CLOCK = Clock.systemUTC();

    @Bean
    @ConditionalOnMissingBean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static JobRegistry dschedJobRegistry() {
        return new JobRegistry();
    }

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static DistributedScheduledBeanPostProcessor distributedScheduledBeanPostProcessor(JobRegistry registry) {
        return new DistributedScheduledBeanPostProcessor(registry);
    }

    @Bean
    @ConditionalOnMissingBean
    NodeId dschedNodeId(DschedProperties properties) {
        return NodeId.of(properties.getNodeId());
    }

    @Bean
    @ConditionalOnMissingBean
    DschedJdbc dschedJdbc(
            DschedProperties properties,
            @DschedDataSource ObjectProvider<DataSource> dschedDataSource,
            ObjectProvider<DataSource> dataSource) {
        DataSource chosen = dschedDataSource.getIfAvailable(dataSource::getIfUnique);
        if (chosen == null) {
            throw new IllegalStateException("dsched needs a DataSource to keep its jobs in, but the application has "
                    + "none (or several and none marked @DschedDataSource). Add spring-boot-starter-jdbc and a "
                    + "database driver with spring.datasource.url, mark one DataSource @DschedDataSource, or turn "
                    + "dsched off with dsched.enabled=false");
        }
        String platform = properties.getJdbc().getPlatform();
        return new DschedJdbc(
                chosen,
                StringUtils.hasText(platform) ? DatabasePlatform.of(platform) : DatabasePlatform.detect(chosen));
    }

    @Bean
    @ConditionalOnMissingBean
    DschedSchemaInitializer dschedSchemaInitializer(DschedJdbc jdbc, DschedProperties properties) {
        return new DschedSchemaInitializer(jdbc, properties.getJdbc().getInitializeSchema());
    }

    @Bean
    @ConditionalOnMissingBean(name = "dschedLockProvider")
    LockProvider dschedLockProvider(DschedJdbc jdbc) {
        return new JdbcTemplateLockProvider(JdbcTemplateLockProvider.Configuration.builder()
                .withJdbcTemplate(new JdbcTemplate(jdbc.dataSource()))
                .withTableName("dsched_lock")
                .usingDbTime()
                .build());
    }

    @Bean
    @ConditionalOnMissingBean
    ExecutionRepository dschedExecutionRepository(DschedJdbc jdbc) {
        return new DschedRepositories(jdbc.dataSource(), jdbc.platform()).executions();
    }

    @Bean
    @ConditionalOnMissingBean
    ExecutionStore dschedExecutionStore(ExecutionRepository repository) {
        return new ExecutionStore(repository);
    }

    @Bean
    @ConditionalOnMissingBean
    JobDefinitionStore dschedJobDefinitionStore(DschedJdbc jdbc) {
        return new JobDefinitionStore(jdbc.dataSource(), jdbc.platform(), CLOCK);
    }

    @Bean
    @ConditionalOnMissingBean
    JobGuard dschedJobGuard(@Qualifier("dschedLockProvider") LockProvider lockProvider, DschedProperties properties) {
        return new JobGuard(
                lockProvider,
                properties.getLock().getAtMostFor(),
                properties.getLock().getAtLeastFor(),
                CLOCK);
    }

    @Bean
    @ConditionalOnMissingBean
    FireExecutor dschedFireExecutor(JobRegistry registry, ExecutionStore store, JobGuard guard, NodeId nodeId) {
        return new FireExecutor(registry, store, guard, nodeId.value(), CLOCK);
    }

    @Bean
    @ConditionalOnMissingBean
    DschedEngine dschedEngine(
            DschedProperties properties,
            DschedJdbc jdbc,
            DschedSchemaInitializer schemaInitializer,
            NodeId nodeId,
            JobRegistry registry,
            FireExecutor executor,
            JobDefinitionStore definitions)
            throws SchedulerException {
        DschedProperties.Cluster cluster = properties.getCluster();
        return new DschedEngine(
                QuartzSettings.forNode(
                        jdbc.dataSource(),
                        jdbc.platform(),
                        cluster.getName(),
                        nodeId.value(),
                        properties.getThreads(),
                        cluster.getCheckinInterval(),
                        cluster.getIdleWait(),
                        cluster.getMisfireThreshold()),
                new FireDispatcher(executor, registry, CLOCK),
                (scheduler) -> new JobSynchronizer(
                        scheduler,
                        registry,
                        definitions,
                        nodeId.value(),
                        properties.getJobs().isReapplySuperseded(),
                        CLOCK),
                properties.getShutdown().isWaitForJobs());
    }
}
