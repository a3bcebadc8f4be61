package io.dsched.autoconfigure;

import io.dsched.internal.cluster.BroadcastNodes;
import io.dsched.internal.cluster.DatabaseClock;
import io.dsched.internal.cluster.GroupLiveness;
import io.dsched.internal.deadletter.DeadLetters;
import io.dsched.internal.definition.JobRegistry;
import io.dsched.internal.engine.DschedEngine;
import io.dsched.internal.engine.NodeId;
import io.dsched.internal.execution.JobTargets;
import io.dsched.internal.handler.HandlerRegistry;
import io.dsched.internal.jobs.DefaultJobScheduler;
import io.dsched.internal.jobs.HandlerOrder;
import io.dsched.internal.jobs.JobShards;
import io.dsched.internal.jobs.RuntimeJobs;
import io.dsched.internal.jobs.SubmissionObserver;
import io.dsched.internal.queue.DueNotice;
import io.dsched.internal.store.DeadLetterRepository;
import io.dsched.internal.store.DeploymentStore;
import io.dsched.internal.store.DschedRepositories;
import io.dsched.internal.store.ExecutionRepository;
import io.dsched.internal.store.ExecutionStore;
import io.dsched.internal.store.UniqueKeys;
import io.dsched.jobs.JobScheduler;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * What the application calls: the {@link JobScheduler} that submits one-off jobs, the jobs
 * created at runtime, and the dead letters to replay or discard.
 */
@Configuration(proxyBeanMethods = false)
final class DschedJobsConfiguration {

    @Bean
    @ConditionalOnMissingBean
    RuntimeJobs dschedRuntimeJobs(
            DschedRepositories repositories, DschedJdbc jdbc, HandlerRegistry handlers, DatabaseClock clock) {
        return new RuntimeJobs(
                repositories.aggregates(),
                jdbc.dataSource(),
                jdbc.tables(),
                repositories.executions(),
                jdbc.transactions(),
                handlers,
                clock);
    }

    @Bean
    @ConditionalOnMissingBean
    JobShards dschedJobShards(JobRegistry jobs, RuntimeJobs runtimeJobs) {
        return new JobShards(jobs, runtimeJobs);
    }

    @Bean
    @ConditionalOnMissingBean
    JobScheduler dschedJobScheduler(
            HandlerRegistry handlers,
            JobRegistry jobs,
            ExecutionStore store,
            DschedEngine engine,
            PayloadJsonMapper payloadJsonMapper,
            NodeId nodeId,
            DueNotice dueNotice,
            RuntimeJobs runtimeJobs,
            ObjectProvider<SubmissionObserver> observer,
            DschedJdbc jdbc,
            DatabaseClock clock) {
        return new DefaultJobScheduler(
                handlers,
                jobs,
                store,
                engine::scheduler,
                payloadJsonMapper,
                nodeId.value(),
                clock,
                dueNotice,
                runtimeJobs,
                observer.getIfAvailable(() -> SubmissionObserver.NONE),
                new UniqueKeys(jdbc.dataSource(), jdbc.platform(), jdbc.tables(), jdbc.transactions()));
    }

    @Bean
    @ConditionalOnMissingBean
    DeadLetters dschedDeadLetters(
            DschedRepositories repositories,
            DeadLetterRepository deadLetters,
            ExecutionRepository executions,
            DschedJdbc jdbc,
            NodeId nodeId,
            DueNotice dueNotice,
            DatabaseClock clock,
            HandlerRegistry handlers,
            PayloadJsonMapper payloadJsonMapper,
            JobTargets targets,
            GroupLiveness liveness,
            DeploymentStore deployments) {
        return new DeadLetters(
                repositories.aggregates(),
                deadLetters,
                executions,
                jdbc.transactions(),
                nodeId.value(),
                clock,
                dueNotice,
                new HandlerOrder(handlers, payloadJsonMapper),
                // a broadcast job's replay runs on the node whose attempt failed, if it runs the job
                (job) -> targets.find(job)
                        .filter((target) ->
                                target.shards() != null && target.shards().broadcast())
                        .map(new BroadcastNodes(liveness, deployments)));
    }
}
