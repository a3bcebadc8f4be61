package io.dsched.autoconfigure;

import io.dsched.internal.cluster.BroadcastNodes;
import io.dsched.internal.cluster.ClockSkew;
import io.dsched.internal.cluster.ClusterMembership;
import io.dsched.internal.cluster.DatabaseClock;
import io.dsched.internal.cluster.GroupLiveness;
import io.dsched.internal.cluster.NodeTable;
import io.dsched.internal.engine.NodeId;
import io.dsched.internal.execution.AttemptRunner;
import io.dsched.internal.execution.JobTargets;
import io.dsched.internal.execution.NodeGroups;
import io.dsched.internal.queue.ExecutionQueue;
import io.dsched.internal.store.DeploymentStore;
import io.dsched.internal.store.ExecutionStore;
import java.time.Clock;
import java.util.Set;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The node's membership of the cluster: the database's clock every node decides by, the check
 * of this node's clock against it, and the heartbeat that declares dead nodes and recovers
 * their attempts.
 */
@Configuration(proxyBeanMethods = false)
final class DschedClusterConfiguration {

    @Bean
    @ConditionalOnMissingBean
    DatabaseClock dschedDatabaseClock() {
        return new DatabaseClock(Clock.systemUTC());
    }

    @Bean
    @ConditionalOnMissingBean
    ClockSkew dschedClockSkew(DatabaseClock clock, DschedProperties properties, NodeId nodeId) {
        return new ClockSkew(clock, properties.getCluster().getMaxClockSkew(), nodeId.value());
    }

    @Bean
    @ConditionalOnMissingBean
    ClusterMembership dschedClusterMembership(
            DschedJdbc jdbc,
            ExecutionStore store,
            JobTargets targets,
            ExecutionQueue queue,
            AttemptRunner runner,
            NodeId nodeId,
            NodeGroups groups,
            DschedProperties properties,
            DschedSchemaInitializer schemaInitializer,
            DatabaseClock clock,
            ClockSkew skew,
            GroupLiveness liveness,
            DeploymentStore deployments) {
        DschedProperties.Recovery recovery = properties.getRecovery();
        return new ClusterMembership(
                new NodeTable(jdbc.dataSource(), jdbc.platform(), jdbc.tables()),
                store,
                targets,
                queue::wakeUp,
                runner::inFlight,
                nodeId.value(),
                properties.isRunJobs() ? groups.served() : Set.of(),
                recovery.getHeartbeatInterval(),
                recovery.getNodeTimeout(),
                clock,
                skew,
                new BroadcastNodes(liveness, deployments));
    }
}
