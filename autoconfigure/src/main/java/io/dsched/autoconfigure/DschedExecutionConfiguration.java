package io.dsched.autoconfigure;

import io.dsched.execution.ExecutionListener;
import io.dsched.internal.cluster.BroadcastNodes;
import io.dsched.internal.cluster.DatabaseClock;
import io.dsched.internal.cluster.GroupLiveness;
import io.dsched.internal.definition.JobRegistry;
import io.dsched.internal.engine.NodeId;
import io.dsched.internal.execution.AttemptObserver;
import io.dsched.internal.execution.AttemptRunner;
import io.dsched.internal.execution.CompositeJobTargets;
import io.dsched.internal.execution.ExecutionListeners;
import io.dsched.internal.execution.FireExecutor;
import io.dsched.internal.execution.JobGuard;
import io.dsched.internal.execution.JobTargets;
import io.dsched.internal.execution.StopRequests;
import io.dsched.internal.execution.WorkerPools;
import io.dsched.internal.handler.HandlerRegistry;
import io.dsched.internal.jobs.RuntimeJobs;
import io.dsched.internal.queue.DueNotice;
import io.dsched.internal.queue.ExecutionQueue;
import io.dsched.internal.store.DeploymentStore;
import io.dsched.internal.store.ExecutionStore;
import java.security.SecureRandom;
import java.util.List;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;

/**
 * How an attempt runs: the targets it invokes, the runner that claims, admits, invokes and
 * records it, the executor of scheduled fires, and the requests to stop attempts. Every
 * {@link ExecutionListener} bean hears of every attempt, in order.
 */
@Configuration(proxyBeanMethods = false)
final class DschedExecutionConfiguration {

    // the registries are targets too: this one, which combines them, is the one to inject
    @Bean
    @Primary
    @ConditionalOnMissingBean(name = "dschedJobTargets")
    JobTargets dschedJobTargets(JobRegistry registry, HandlerRegistry handlers, RuntimeJobs runtimeJobs) {
        return new CompositeJobTargets(List.of(registry, handlers, runtimeJobs));
    }

    @Bean
    @ConditionalOnMissingBean
    StopRequests dschedStopRequests(ExecutionStore store, DschedProperties properties) {
        DschedProperties.Execution execution = properties.getExecution();
        return new StopRequests(
                store.cancels()::requested, execution.getCancelPollInterval(), execution.getCancelGrace());
    }

    @Bean
    @ConditionalOnMissingBean
    AttemptRunner dschedAttemptRunner(
            JobTargets targets,
            ExecutionStore store,
            JobGuard guard,
            NodeId nodeId,
            ObjectProvider<ExecutionListener> listeners,
            ObjectProvider<AttemptObserver> observer,
            StopRequests stops,
            DatabaseClock clock) {
        return new AttemptRunner(
                targets,
                store,
                guard,
                nodeId.value(),
                clock,
                new SecureRandom(),
                listeners(listeners),
                observer.getIfAvailable(() -> AttemptObserver.NONE),
                stops);
    }

    @Bean
    @ConditionalOnMissingBean
    FireExecutor dschedFireExecutor(
            ExecutionStore store,
            AttemptRunner runner,
            JobGuard guard,
            JobTargets targets,
            WorkerPools pools,
            ExecutionQueue queue,
            DueNotice notices,
            GroupLiveness liveness,
            DeploymentStore deployments,
            ObjectProvider<ExecutionListener> listeners,
            DatabaseClock clock) {
        return new FireExecutor(
                store,
                runner,
                guard,
                targets,
                pools,
                queue::wakeUp,
                // the notices of submissions, which wake every node that runs the job where they reach
                (job) -> notices.due(List.of(job)),
                new BroadcastNodes(liveness, deployments),
                clock,
                listeners(listeners));
    }

    private static ExecutionListener listeners(ObjectProvider<ExecutionListener> listeners) {
        return new ExecutionListeners(listeners.orderedStream().toList());
    }
}
