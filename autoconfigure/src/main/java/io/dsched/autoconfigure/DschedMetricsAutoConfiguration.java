package io.dsched.autoconfigure;

import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.ExecutionStatus;
import io.dsched.internal.cluster.ClockSkew;
import io.dsched.internal.cluster.GroupLiveness;
import io.dsched.internal.cluster.NodeTable;
import io.dsched.internal.deadletter.DeadLetters;
import io.dsched.internal.definition.JobDefinition;
import io.dsched.internal.definition.JobRegistry;
import io.dsched.internal.engine.NodeId;
import io.dsched.internal.execution.ShardedFire;
import io.dsched.internal.execution.Sharding;
import io.dsched.internal.handler.HandlerRegistry;
import io.dsched.internal.jobs.JobShards;
import io.dsched.internal.jobs.RuntimeJobs;
import io.dsched.internal.management.LimitCommands;
import io.dsched.internal.metrics.ClockGauges;
import io.dsched.internal.metrics.ClusterGauges;
import io.dsched.internal.metrics.DschedMetrics;
import io.dsched.internal.metrics.GroupGauges;
import io.dsched.internal.metrics.LimitGauges;
import io.dsched.internal.metrics.NoticeGauges;
import io.dsched.internal.metrics.ShardGauges;
import io.dsched.internal.queue.NoticeHearer;
import io.dsched.internal.store.ExecutionRepository;
import io.dsched.internal.store.ExecutionStore;
import io.dsched.internal.store.ShardSettings;
import io.dsched.jobs.RuntimeJobRecord;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.util.function.SingletonSupplier;

/**
 * Publishes dsched's meters (see {@link DschedMetrics}) when Micrometer is on the class path; Spring
 * Boot binds them to every meter registry of the application.
 */
@AutoConfiguration(after = DschedAutoConfiguration.class)
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean(JobRegistry.class)
@ConditionalOnProperty(prefix = "dsched.metrics", name = "enabled", havingValue = "true", matchIfMissing = true)
public final class DschedMetricsAutoConfiguration {

    /** How many of a job's latest attempts are looked through for its last success at start-up. */
    private static final int LAST_SUCCESS_LOOKBACK = 50;

    /** How many of a sharded job's latest fires are looked through for the latest to have ended. */
    private static final int SHARDED_FIRES_READ = 5;

    @Bean
    @ConditionalOnMissingBean
    DschedMetrics dschedMetrics(
            DschedJdbc jdbc,
            JobRegistry registry,
            RuntimeJobs runtimeJobs,
            ObjectProvider<DeadLetters> deadLetters,
            ExecutionRepository executions,
            DschedProperties properties) {
        NodeTable nodes = new NodeTable(jdbc.dataSource(), jdbc.platform(), jdbc.tables());
        Duration nodeTimeout = properties.getRecovery().getNodeTimeout();
        ClusterGauges cluster = new ClusterGauges(
                () -> nodes.sightings().stream()
                        .filter((node) -> node.isAlive(nodeTimeout))
                        .count(),
                // looked up when first read: the dead letters depend on the runner, which calls the metrics
                () -> deadLetters.getObject().openCount(),
                executions::countPendingOneOffs,
                properties.getMetrics().getRefresh(),
                Clock.systemUTC());
        return new DschedMetrics(
                cluster,
                (job) -> registry.definition(job)
                        .map(JobDefinition::schedule)
                        .or(() -> runtimeJobs.record(job).map(RuntimeJobRecord::schedule)),
                (job) -> executions.findLatestByJobName(job, LAST_SUCCESS_LOOKBACK).stream()
                        .filter((attempt) -> attempt.status() == ExecutionStatus.SUCCEEDED)
                        .map(ExecutionRecord::finishedAt)
                        .findFirst(),
                registry::names,
                properties.getMetrics().getExpectedNodes());
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(ClockSkew.class)
    ClockGauges dschedClockGauges(ClockSkew skew) {
        return new ClockGauges(skew);
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBean(GroupLiveness.class)
    GroupGauges dschedGroupGauges(GroupLiveness groups, DschedProperties properties) {
        return new GroupGauges(groups::groups, properties.getMetrics().getRefresh(), Clock.systemUTC());
    }

    @Bean
    @ConditionalOnMissingBean
    LimitGauges dschedLimitGauges(HandlerRegistry handlers, ExecutionStore store, DschedProperties properties) {
        LimitCommands limits = new LimitCommands(handlers, store.limits(), Clock.systemUTC());
        return new LimitGauges(
                limits::limits,
                () -> handlers.names().stream().filter(handlers::limits).toList(),
                properties.getMetrics().getRefresh(),
                Clock.systemUTC());
    }

    @Bean
    @ConditionalOnMissingBean
    ShardGauges dschedShardGauges(
            JobShards shards,
            RuntimeJobs runtimeJobs,
            ExecutionStore store,
            NodeId nodeId,
            DschedProperties properties) {
        ShardGauges gauges = new ShardGauges(
                // a broadcast job's fires have as many shards as live nodes: not counted here
                shards::counts,
                (job) -> ShardedFire.latest(store, job, SHARDED_FIRES_READ),
                // set at run time, or the definition's
                (job) -> store.shardSettings()
                        .find(job)
                        .map(ShardSettings.Set::count)
                        .orElseGet(() -> shards.of(job).map(Sharding::count).orElse(0)),
                store.shardedFires()::partial,
                nodeId.value(),
                properties.getMetrics().getRefresh(),
                Clock.systemUTC());
        // a runtime job created with shards, or deleted, on this node or another
        runtimeJobs.whenChanged(gauges::jobsChanged);
        return gauges;
    }

    @Bean
    @ConditionalOnMissingBean
    NoticeGauges dschedNoticeGauges(ObjectProvider<NoticeHearer> hearers) {
        return new NoticeGauges(
                NoticeHearer.names(), NoticeHearer.named(SingletonSupplier.of(() -> hearers.orderedStream()
                        .toList())));
    }
}
