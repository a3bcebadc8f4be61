package io.dsched.autoconfigure;

import io.dsched.internal.cluster.ClockSkew;
import io.dsched.internal.cluster.ClusterMembership;
import io.dsched.internal.cluster.DatabaseClock;
import io.dsched.internal.cluster.MembershipStanding;
import io.dsched.internal.cluster.NodeTable;
import io.dsched.internal.definition.JobRegistry;
import io.dsched.internal.engine.DeploymentLock;
import io.dsched.internal.engine.Deployments;
import io.dsched.internal.engine.DschedEngine;
import io.dsched.internal.engine.FireDispatcher;
import io.dsched.internal.engine.GracefulShutdown;
import io.dsched.internal.engine.JobSynchronizer;
import io.dsched.internal.engine.NodeId;
import io.dsched.internal.engine.QuartzSettings;
import io.dsched.internal.engine.WorkerThreads;
import io.dsched.internal.execution.FireExecutor;
import io.dsched.internal.execution.WorkerPools;
import io.dsched.internal.history.Housekeeping;
import io.dsched.internal.jobs.RuntimeJobs;
import io.dsched.internal.store.DeploymentStore;
import io.dsched.internal.store.JobDefinitionStore;
import io.dsched.quartz.StartBacklog;
import java.util.Properties;
import org.quartz.SchedulerException;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.info.BuildProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The engine: this node's clustered Quartz scheduler, which writes the declared jobs into the
 * store on start and hands its fires to the executor. Its settings are derived from the
 * properties, then handed to every {@link DschedCustomizer}, in order, last.
 */
@Configuration(proxyBeanMethods = false)
final class DschedEngineConfiguration {

    // housekeeping registers its job before the engine writes the declared jobs
    @Bean
    @ConditionalOnMissingBean
    DschedEngine dschedEngine(
            DschedProperties properties,
            DschedJdbc jdbc,
            DschedSchemaInitializer schemaInitializer,
            NodeId nodeId,
            JobRegistry registry,
            FireExecutor executor,
            JobDefinitionStore definitions,
            DeploymentStore deployments,
            DeploymentLock deploymentLock,
            ObjectProvider<BuildProperties> build,
            Housekeeping housekeeping,
            RuntimeJobs runtimeJobs,
            GracefulShutdown shutdown,
            ClusterMembership membership,
            ClockSkew skew,
            DatabaseClock clock,
            WorkerThreads workerThreads,
            WorkerPools pools,
            StartBacklog backlog,
            ObjectProvider<DschedCustomizer> customizers)
            throws SchedulerException {
        DschedProperties.Cluster cluster = properties.getCluster();
        if (!jdbc.tables().clusterName().equals(cluster.getName())) {
            throw new IllegalStateException("dsched.cluster.name is '" + cluster.getName()
                    + "' but the DschedJdbc bean "
                    + "names the tables of cluster '" + jdbc.tables().clusterName() + "': give it ClusterTables.of(\""
                    + cluster.getName() + "\")");
        }
        Properties quartz = QuartzSettings.forNode(
                jdbc.dataSource(),
                jdbc.platform(),
                // the name the tables were named by, also with a DschedJdbc of the application's
                jdbc.tables().clusterName(),
                nodeId.value(),
                properties.getThreads(),
                cluster.getCheckinInterval(),
                cluster.getIdleWait(),
                cluster.getMisfireThreshold(),
                cluster.isSkipLocked());
        QuartzSettings.groupThreads(quartz, pools.groupThreads());
        QuartzSettings.fireAhead(quartz, cluster.getFireAhead(), cluster.getFireAheadMax());
        QuartzSettings.workerThreads(quartz, workerThreads);
        DschedEngineSettings settings =
                new DschedEngineSettings(jdbc.tables().clusterName(), nodeId.value(), jdbc.platform(), quartz);
        customizers.orderedStream().forEach((customizer) -> customizer.customize(settings));
        return new DschedEngine(
                quartz,
                new FireDispatcher(executor, registry, clock.nodeClock()),
                (scheduler) -> new JobSynchronizer(
                        scheduler,
                        registry,
                        definitions,
                        new Deployments(deployments, deploymentLock, build(build)),
                        nodeId.value(),
                        properties.getJobs().isReapplySuperseded(),
                        clock,
                        runtimeJobs::synchronize),
                shutdown,
                properties.isRunJobs(),
                new MembershipStanding(
                        membership, skew, new NodeTable(jdbc.dataSource(), jdbc.platform(), jdbc.tables())),
                backlog);
    }

    private static String build(ObjectProvider<BuildProperties> build) {
        BuildProperties properties = build.getIfAvailable();
        if (properties == null) {
            return null;
        }
        return properties.getGroup() + ":" + properties.getArtifact() + ":" + properties.getVersion() + "@"
                + properties.getTime();
    }
}
