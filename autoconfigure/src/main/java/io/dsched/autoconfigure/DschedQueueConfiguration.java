package io.dsched.autoconfigure;

import io.dsched.execution.LoadSignal;
import io.dsched.internal.cluster.DatabaseClock;
import io.dsched.internal.cluster.GroupLiveness;
import io.dsched.internal.cluster.LiveNodeCounts;
import io.dsched.internal.engine.GracefulShutdown;
import io.dsched.internal.engine.WorkerThreads;
import io.dsched.internal.execution.AttemptRunner;
import io.dsched.internal.execution.JobTargets;
import io.dsched.internal.execution.NodeGroups;
import io.dsched.internal.execution.WorkerPools;
import io.dsched.internal.handler.HandlerRegistry;
import io.dsched.internal.queue.AfterCommit;
import io.dsched.internal.queue.ClusterNotices;
import io.dsched.internal.queue.DueNotice;
import io.dsched.internal.queue.ExecutionQueue;
import io.dsched.internal.queue.NoticeChannel;
import io.dsched.internal.queue.NoticeListener;
import io.dsched.internal.queue.RedisNoticeChannel;
import io.dsched.internal.queue.RedisNoticeListener;
import io.dsched.internal.store.ExecutionStore;
import io.dsched.internal.store.LimitOutcomes;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * The queue of waiting attempts (retries, one-off jobs, recoveries) and the graceful shutdown
 * that both the queue and the engine wait on.
 */
@Configuration(proxyBeanMethods = false)
final class DschedQueueConfiguration {

    @Bean
    @ConditionalOnMissingBean
    GracefulShutdown dschedGracefulShutdown(DschedProperties properties) {
        DschedProperties.Shutdown shutdown = properties.getShutdown();
        return new GracefulShutdown(
                shutdown.isWaitForJobs() ? shutdown.getTimeout() : Duration.ZERO, Clock.systemUTC());
    }

    /**
     * Counts the outcomes of the handlers whose limits adapt, as an execution listener of every
     * attempt, for the queue's claims to write; and asks the application's load signals.
     */
    @Bean
    @ConditionalOnMissingBean
    LimitOutcomes dschedLimitOutcomes(HandlerRegistry handlers, ObjectProvider<LoadSignal> signals) {
        return new LimitOutcomes(
                (name) -> handlers.limitsOf(name).adaptive() != null,
                signals.orderedStream().toList());
    }

    // after the schema, which the queue polls as soon as it starts
    @Bean
    @ConditionalOnMissingBean
    ExecutionQueue dschedExecutionQueue(
            LimitOutcomes outcomes,
            ExecutionStore store,
            AttemptRunner runner,
            JobTargets targets,
            WorkerPools pools,
            HandlerRegistry handlers,
            DschedProperties properties,
            DschedSchemaInitializer schemaInitializer,
            GracefulShutdown shutdown,
            DatabaseClock clock,
            WorkerThreads workerThreads,
            GroupLiveness liveness,
            ObjectProvider<DueNotice> notices) {
        // the queue claims the attempts of the jobs and handlers of the groups this node serves alone,
        // each worker pool those of its own groups
        return new ExecutionQueue(
                store,
                runner,
                pools.pools(targets),
                // a one-off handler's limits
                handlers,
                outcomes,
                // a sharded fire's shards are shared by the live nodes of its group, counted anew each second
                new LiveNodeCounts(liveness, Duration.ofSeconds(1), System::nanoTime),
                // a held fire let go is announced as a submission is (the notices, made over this
                // queue, are looked up when first used)
                (job) -> notices.ifAvailable((notice) -> notice.due(List.of(job))),
                clock,
                properties.getQueue().getPollInterval(),
                workerThreads,
                shutdown,
                properties.isRunJobs());
    }

    /** How the nodes hear of attempts due now: on PostgreSQL a NOTIFY, elsewhere this node alone. */
    @Bean
    @ConditionalOnMissingBean
    DueNotice dschedDueNotice(DschedJdbc jdbc, ExecutionQueue queue, DschedProperties properties, DatabaseClock clock) {
        if (notifyThroughRedis(properties)) {
            // the configuration below, which makes this bean, did not match
            throw new IllegalStateException("dsched.queue.notify-through=redis needs Spring Data Redis on the class"
                    + " path and a RedisConnectionFactory bean (spring-boot-starter-data-redis)");
        }
        Optional<String> notifySql = jdbc.platform().dialect().notifySql();
        if (properties.getQueue().isNotify() && notifySql.isPresent()) {
            return new AfterCommit(ClusterNotices.postgres(
                    NoticeChannel.of(jdbc.dataSource(), notifySql.get(), jdbc.tables()), queue::wakeUp, clock));
        }
        // a wake-up before the caller's commit would find nothing
        return new AfterCommit((jobNames) -> queue.wakeUp());
    }

    // after the schema: a node that runs jobs hears of them once it can claim them
    @Bean
    @ConditionalOnMissingBean
    NoticeListener dschedNoticeListener(
            DschedJdbc jdbc,
            ExecutionQueue queue,
            JobTargets targets,
            NodeGroups groups,
            DschedProperties properties,
            DschedSchemaInitializer schemaInitializer) {
        Optional<String> notifySql = jdbc.platform().dialect().notifySql();
        return new NoticeListener(
                NoticeChannel.of(jdbc.dataSource(), notifySql.orElse(""), jdbc.tables()),
                groups.served(targets),
                queue,
                properties.isRunJobs()
                        && properties.getQueue().isNotify()
                        && !notifyThroughRedis(properties)
                        && notifySql.isPresent());
    }

    private static boolean notifyThroughRedis(DschedProperties properties) {
        return properties.getQueue().isNotify()
                && properties.getQueue().getNotifyThrough() == DschedProperties.NotifyThrough.REDIS;
    }

    /** Notices through Redis's pub/sub, when chosen: on any database, or behind a pooler. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.springframework.data.redis.connection.RedisConnectionFactory")
    @ConditionalOnProperty(prefix = "dsched.queue", name = "notify-through", havingValue = "redis")
    @ConditionalOnBooleanProperty(prefix = "dsched.queue", name = "notify", matchIfMissing = true)
    static final class RedisNotices {

        @Bean
        @ConditionalOnMissingBean
        RedisNoticeChannel dschedRedisNoticeChannel(ObjectProvider<RedisConnectionFactory> redis, DschedJdbc jdbc) {
            RedisConnectionFactory connections = redis.getIfAvailable(() -> {
                throw new IllegalStateException("dsched.queue.notify-through=redis needs a RedisConnectionFactory"
                        + " bean: add spring-boot-starter-data-redis and set spring.data.redis.*");
            });
            return RedisNoticeChannel.of(connections, jdbc.tables());
        }

        @Bean
        @ConditionalOnMissingBean
        DueNotice dschedDueNotice(RedisNoticeChannel channel, ExecutionQueue queue, DatabaseClock clock) {
            return new AfterCommit(channel.notices(queue::wakeUp, clock));
        }

        @Bean
        @ConditionalOnMissingBean
        RedisNoticeListener dschedRedisNoticeListener(
                RedisNoticeChannel channel,
                ExecutionQueue queue,
                JobTargets targets,
                NodeGroups groups,
                DschedProperties properties) {
            return new RedisNoticeListener(channel, groups.served(targets), queue, properties.isRunJobs());
        }
    }
}
