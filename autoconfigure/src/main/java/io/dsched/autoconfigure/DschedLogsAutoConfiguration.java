package io.dsched.autoconfigure;

import ch.qos.logback.classic.LoggerContext;
import io.dsched.internal.logs.ExecutionLogCapture;
import io.dsched.internal.logs.ExecutionLogs;
import java.time.Clock;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;

/**
 * Captures what each attempt logs and keeps it in {@code dsched_execution_log} (see
 * {@link ExecutionLogCapture}), when Logback, Spring Boot's default logging, is on the class path.
 */
@AutoConfiguration(after = DschedAutoConfiguration.class)
@ConditionalOnClass(LoggerContext.class)
@ConditionalOnBean(DschedJdbc.class)
public final class DschedLogsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    ExecutionLogs dschedExecutionLogs(DschedJdbc jdbc) {
        return new ExecutionLogs(jdbc.dataSource(), jdbc.platform(), jdbc.tables());
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnProperty(prefix = "dsched.logs", name = "capture", havingValue = "true", matchIfMissing = true)
    ExecutionLogCapture dschedExecutionLogCapture(ExecutionLogs logs, DschedProperties properties) {
        DschedProperties.Logs settings = properties.getLogs();
        return new ExecutionLogCapture(logs, settings.getLevel().name(), settings.getMaxSize(), Clock.systemUTC());
    }
}
