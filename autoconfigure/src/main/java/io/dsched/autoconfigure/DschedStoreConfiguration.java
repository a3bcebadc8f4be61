package io.dsched.autoconfigure;

import io.dsched.internal.store.DeadLetterRepository;
import io.dsched.internal.store.DschedRepositories;
import io.dsched.internal.store.ExecutionRepository;
import io.dsched.internal.store.ExecutionStore;
import io.dsched.internal.store.JobDefinitionStore;
import io.dsched.quartz.StartBacklog;
import java.time.Duration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The repositories and stores of dsched's tables: attempts, dead letters, job definitions. */
@Configuration(proxyBeanMethods = false)
final class DschedStoreConfiguration {

    @Bean
    @ConditionalOnMissingBean
    DschedRepositories dschedRepositories(DschedJdbc jdbc) {
        return new DschedRepositories(jdbc.dataSource(), jdbc.platform(), jdbc.tables());
    }

    @Bean
    @ConditionalOnMissingBean
    ExecutionRepository dschedExecutionRepository(DschedRepositories repositories) {
        return repositories.executions();
    }

    @Bean
    @ConditionalOnMissingBean
    DeadLetterRepository dschedDeadLetterRepository(DschedRepositories repositories) {
        return repositories.deadLetters();
    }

    @Bean
    @ConditionalOnMissingBean
    ExecutionStore dschedExecutionStore(
            ExecutionRepository executions,
            DeadLetterRepository deadLetters,
            DschedJdbc jdbc,
            DschedProperties properties,
            StartBacklog backlog) {
        return new ExecutionStore(
                executions,
                deadLetters,
                jdbc.transactions(),
                jdbc.dataSource(),
                jdbc.platform(),
                jdbc.tables(),
                properties.getQueue().isSkipLocked(),
                backlog);
    }

    /** The node's fires due and not started, which its writes that can wait leave room for. */
    @Bean
    @ConditionalOnMissingBean
    StartBacklog dschedStartBacklog(DschedProperties properties) {
        Duration wait = properties.getCluster().getWritesWaitForStarts();
        if (wait == null || wait.isNegative()) {
            throw new IllegalStateException("dsched.cluster.writes-wait-for-starts must be 0 or more, not " + wait);
        }
        return new StartBacklog(wait);
    }

    @Bean
    @ConditionalOnMissingBean
    JobDefinitionStore dschedJobDefinitionStore(DschedJdbc jdbc) {
        return new JobDefinitionStore(jdbc.dataSource(), jdbc.platform(), jdbc.tables());
    }
}
