package io.dsched.autoconfigure;

import io.dsched.internal.audit.AuditLog;
import io.dsched.internal.cluster.DatabaseClock;
import io.dsched.internal.engine.DeploymentLock;
import io.dsched.internal.engine.DschedEngine;
import io.dsched.internal.engine.JobRemovals;
import io.dsched.internal.engine.NodeId;
import io.dsched.internal.store.DeploymentStore;
import io.dsched.internal.store.DschedRepositories;
import java.time.Clock;
import java.time.Duration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Rolling deployments: the record of which version declared which jobs, and the removal of jobs that left. */
@Configuration(proxyBeanMethods = false)
final class DschedDeploymentConfiguration {

    @Bean
    @ConditionalOnMissingBean
    DeploymentStore dschedDeploymentStore(DschedJdbc jdbc) {
        return new DeploymentStore(jdbc.dataSource(), jdbc.platform(), jdbc.tables());
    }

    @Bean
    @ConditionalOnMissingBean
    DeploymentLock dschedDeploymentLock(DschedJdbc jdbc, NodeId nodeId) {
        // always a row of dsched's own lock table, whatever provider guards the jobs
        return new DeploymentLock(TableLockProvider.of(jdbc, nodeId), Clock.systemUTC());
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnProperty(prefix = "dsched.jobs", name = "remove-undeclared", matchIfMissing = true)
    JobRemovals dschedJobRemovals(
            DschedEngine engine,
            DeploymentStore deployments,
            DeploymentLock lock,
            DschedRepositories repositories,
            NodeId nodeId,
            DschedProperties properties,
            DatabaseClock clock) {
        Duration grace = properties.getJobs().getRemovalGrace();
        return new JobRemovals(
                engine::scheduler,
                deployments,
                repositories.executions(),
                new AuditLog(repositories.aggregates()),
                lock,
                (grace != null) ? grace : properties.getRecovery().getNodeTimeout(),
                properties.getRecovery().getNodeTimeout(),
                nodeId.value(),
                clock);
    }
}
