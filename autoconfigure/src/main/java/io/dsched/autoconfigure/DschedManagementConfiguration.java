package io.dsched.autoconfigure;

import io.dsched.internal.audit.AuditLog;
import io.dsched.internal.cluster.ClockSkew;
import io.dsched.internal.cluster.GroupLiveness;
import io.dsched.internal.cluster.NodeTable;
import io.dsched.internal.deadletter.DeadLetters;
import io.dsched.internal.definition.JobRegistry;
import io.dsched.internal.engine.DschedEngine;
import io.dsched.internal.engine.NodeId;
import io.dsched.internal.execution.ShardedFire;
import io.dsched.internal.handler.HandlerRegistry;
import io.dsched.internal.jobs.JobShards;
import io.dsched.internal.jobs.RuntimeJobs;
import io.dsched.internal.logs.ExecutionLogs;
import io.dsched.internal.management.ClusterViews;
import io.dsched.internal.management.DeadLetterCommands;
import io.dsched.internal.management.ExecutionViews;
import io.dsched.internal.management.JobCommands;
import io.dsched.internal.management.JobStatistics;
import io.dsched.internal.management.JobViews;
import io.dsched.internal.management.LimitCommands;
import io.dsched.internal.management.ManagedJobs;
import io.dsched.internal.management.NodeViews;
import io.dsched.internal.management.ShardCommands;
import io.dsched.internal.store.DschedRepositories;
import io.dsched.internal.store.ExecutionRepository;
import io.dsched.internal.store.ExecutionStore;
import io.dsched.jobs.JobScheduler;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * What the endpoint reads and does, apart from how it is exposed: the views of the cluster, its
 * jobs and their attempts, the commands on jobs and dead letters, and the audit log of writes.
 */
@Configuration(proxyBeanMethods = false)
final class DschedManagementConfiguration {

    @Bean
    @ConditionalOnMissingBean
    AuditLog dschedAuditLog(DschedRepositories repositories) {
        return new AuditLog(repositories.aggregates());
    }

    @Bean
    @ConditionalOnMissingBean
    ManagedJobs dschedManagedJobs(JobRegistry registry, RuntimeJobs runtimeJobs, DschedEngine engine) {
        return new ManagedJobs(registry, runtimeJobs, engine::scheduler);
    }

    @Bean
    @ConditionalOnMissingBean
    JobStatistics dschedJobStatistics(DschedJdbc jdbc) {
        return new JobStatistics(jdbc.dataSource(), jdbc.platform(), jdbc.tables());
    }

    @Bean
    @ConditionalOnMissingBean
    ClusterViews dschedClusterViews(
            DschedJdbc jdbc,
            JobStatistics statistics,
            ManagedJobs jobs,
            DschedRepositories repositories,
            DeadLetters deadLetters,
            NodeId nodeId,
            DschedProperties properties,
            ClockSkew skew,
            GroupLiveness groups) {
        return new ClusterViews(
                jobs,
                new NodeViews(
                        new NodeTable(jdbc.dataSource(), jdbc.platform(), jdbc.tables()),
                        properties.getRecovery().getNodeTimeout(),
                        skew,
                        nodeId.value(),
                        groups),
                statistics,
                deadLetters,
                repositories.aggregates(),
                Clock.systemUTC());
    }

    @Bean
    @ConditionalOnMissingBean
    ExecutionViews dschedExecutionViews(
            JobStatistics statistics,
            ManagedJobs jobs,
            ExecutionRepository executions,
            DschedRepositories repositories,
            ObjectProvider<ExecutionLogs> logs,
            LimitCommands limits) {
        return new ExecutionViews(
                executions,
                repositories.aggregates(),
                jobs,
                (id) -> {
                    ExecutionLogs found = logs.getIfAvailable();
                    return (found != null) ? found.find(id) : Optional.empty();
                },
                statistics,
                limits::whyWaiting);
    }

    @Bean
    @ConditionalOnMissingBean
    JobViews dschedJobViews(
            JobStatistics statistics,
            ManagedJobs jobs,
            JobScheduler scheduler,
            ExecutionRepository executions,
            ExecutionViews executionViews,
            ExecutionStore store,
            JobShards jobShards,
            ShardCommands shards) {
        return new JobViews(
                jobs,
                scheduler,
                executions,
                statistics,
                executionViews,
                // the jobs defined with shards: the others' pages read no fires
                (job, most) -> jobShards.of(job).isPresent() ? ShardedFire.latest(store, job, most) : List.of(),
                shards::view,
                (job, fire) -> store.shardedFires().shardAttempts(job, fire, fire),
                Clock.systemUTC());
    }

    @Bean
    @ConditionalOnMissingBean
    ShardCommands dschedShardCommands(ManagedJobs jobs, JobShards jobShards, ExecutionStore store) {
        return new ShardCommands(jobs, jobShards::of, store.shardSettings(), Clock.systemUTC());
    }

    @Bean
    @ConditionalOnMissingBean
    JobCommands dschedJobCommands(ManagedJobs jobs, JobScheduler scheduler, ShardCommands shards) {
        return new JobCommands(jobs, scheduler, shards);
    }

    @Bean
    @ConditionalOnMissingBean
    LimitCommands dschedLimitCommands(HandlerRegistry handlers, ExecutionStore store) {
        return new LimitCommands(handlers, store.limits(), Clock.systemUTC());
    }

    @Bean
    @ConditionalOnMissingBean
    DeadLetterCommands dschedDeadLetterCommands(DeadLetters deadLetters, DschedJdbc jdbc) {
        return new DeadLetterCommands(deadLetters, jdbc.transactions());
    }
}
