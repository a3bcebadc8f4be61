package io.dsched.autoconfigure;

import io.dsched.internal.cluster.DatabaseClock;
import io.dsched.internal.engine.GracefulShutdown;
import io.dsched.internal.execution.AttemptRunner;
import io.dsched.internal.execution.JobTargets;
import io.dsched.internal.queue.AfterCommit;
import io.dsched.internal.queue.DueNotice;
import io.dsched.internal.queue.ExecutionQueue;
import io.dsched.internal.queue.NoticeChannel;
import io.dsched.internal.queue.NoticeListener;
import io.dsched.internal.queue.PostgresNotices;
import io.dsched.internal.store.ExecutionStore;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

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

    // after the schema, which the queue polls as soon as it starts
    @Bean
    @ConditionalOnMissingBean
    ExecutionQueue dschedExecutionQueue(
            ExecutionStore store,
            AttemptRunner runner,
            JobTargets targets,
            DschedProperties properties,
            DschedSchemaInitializer schemaInitializer,
            GracefulShutdown shutdown,
            DatabaseClock clock) {
        return new ExecutionQueue(
                store,
                runner,
                targets,
                clock,
                properties.getQueue().getPollInterval(),
                properties.getThreads(),
                shutdown,
                properties.isRunJobs());
    }

    /** How the nodes hear of attempts due now: on PostgreSQL a NOTIFY, elsewhere this node alone. */
    @Bean
    @ConditionalOnMissingBean
    DueNotice dschedDueNotice(DschedJdbc jdbc, ExecutionQueue queue, DschedProperties properties, DatabaseClock clock) {
        Optional<String> notifySql = jdbc.platform().dialect().notifySql();
        if (properties.getQueue().isNotify() && notifySql.isPresent()) {
            return new AfterCommit(new PostgresNotices(
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
            DschedProperties properties,
            DschedSchemaInitializer schemaInitializer) {
        Optional<String> notifySql = jdbc.platform().dialect().notifySql();
        return new NoticeListener(
                NoticeChannel.of(jdbc.dataSource(), notifySql.orElse(""), jdbc.tables()),
                targets,
                queue,
                properties.isRunJobs() && properties.getQueue().isNotify() && notifySql.isPresent());
    }
}
