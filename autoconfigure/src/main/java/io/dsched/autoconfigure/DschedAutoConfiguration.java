package io.dsched.autoconfigure;

import io.dsched.internal.cluster.GroupLiveness;
import io.dsched.internal.cluster.NodeTable;
import io.dsched.internal.engine.NodeId;
import io.dsched.internal.engine.WorkerThreads;
import io.dsched.internal.execution.JobTargets;
import io.dsched.internal.execution.NodeGroups;
import io.dsched.internal.execution.WorkerPools;
import io.dsched.internal.store.ClusterTables;
import io.dsched.internal.store.DatabasePlatform;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.thread.Threading;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.util.StringUtils;

/**
 * Auto-configuration of dsched: runs {@code @DistributedScheduled} methods once per fire across
 * every node that shares the database.
 *
 * <p>This class chooses the node's id and its database; the parts built on them are configured
 * by concern in the classes it imports. Every bean a user may replace backs off when the application defines its
 * own of the same type (or, for the lock provider and the job targets, of the same name).
 */
@AutoConfiguration(after = DataSourceAutoConfiguration.class)
@ConditionalOnProperty(prefix = "dsched", name = "enabled", havingValue = "true", matchIfMissing = true)
@EnableConfigurationProperties(DschedProperties.class)
@Import({
    DschedDeclarationsConfiguration.class,
    DschedStoreConfiguration.class,
    DschedDeploymentConfiguration.class,
    DschedGuardConfiguration.class,
    DschedExecutionConfiguration.class,
    DschedQueueConfiguration.class,
    DschedClusterConfiguration.class,
    DschedJobsConfiguration.class,
    DschedHousekeepingConfiguration.class,
    DschedEngineConfiguration.class
})
public final class DschedAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    NodeId dschedNodeId(DschedProperties properties) {
        return NodeId.of(properties.getNodeId());
    }

    @Bean
    @ConditionalOnMissingBean
    NodeGroups dschedNodeGroups(DschedProperties properties) {
        return new NodeGroups(properties.getNode().getGroups());
    }

    @Bean
    @ConditionalOnMissingBean
    WorkerPools dschedWorkerPools(NodeGroups groups, DschedProperties properties) {
        return new WorkerPools(
                groups, properties.getThreads(), properties.getNode().getGroupThreads());
    }

    @Bean
    @ConditionalOnMissingBean
    GroupLiveness dschedGroupLiveness(DschedJdbc jdbc, JobTargets targets, DschedProperties properties) {
        return new GroupLiveness(
                new NodeTable(jdbc.dataSource(), jdbc.platform(), jdbc.tables()),
                properties.getRecovery().getNodeTimeout(),
                () -> NodeGroups.of(targets));
    }

    /**
     * The threads attempts run on: virtual threads where Spring Boot's convention asks for them
     * ({@code spring.threads.virtual.enabled} on Java 21 and later), else platform threads.
     */
    @Bean
    @ConditionalOnMissingBean
    WorkerThreads dschedWorkerThreads(Environment environment) {
        return Threading.VIRTUAL.isActive(environment) ? WorkerThreads.VIRTUAL : WorkerThreads.PLATFORM;
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
                StringUtils.hasText(platform) ? DatabasePlatform.of(platform) : DatabasePlatform.detect(chosen),
                ClusterTables.of(properties.getCluster().getName()));
    }

    @Bean
    @ConditionalOnMissingBean
    DschedSchemaInitializer dschedSchemaInitializer(DschedJdbc jdbc, DschedProperties properties) {
        return new DschedSchemaInitializer(jdbc, properties.getJdbc().getInitializeSchema());
    }
}
