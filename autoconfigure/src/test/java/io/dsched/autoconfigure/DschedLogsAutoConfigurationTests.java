package io.dsched.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import io.dsched.execution.ExecutionListener;
import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.Outcome;
import io.dsched.internal.logs.ExecutionLogCapture;
import io.dsched.internal.logs.ExecutionLogs;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Iterator;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.unit.DataSize;

class DschedLogsAutoConfigurationTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    DataSourceAutoConfiguration.class,
                    DschedAutoConfiguration.class,
                    DschedLogsAutoConfiguration.class))
            .withPropertyValues("spring.datasource.url=jdbc:h2:mem:logs;DB_CLOSE_DELAY=-1");

    @Test
    void capturesTheLogsOfAttemptsWhileTheContextRuns() {
        long before = captureAppenders();
        this.contextRunner.run((context) -> {
            assertThat(context).hasSingleBean(ExecutionLogs.class);
            assertThat(context).hasSingleBean(ExecutionLogCapture.class);
            assertThat(context.getBeansOfType(ExecutionListener.class))
                    .containsValue(context.getBean(ExecutionLogCapture.class));
            assertThat(captureAppenders()).isEqualTo(before + 1);
        });
        assertThat(captureAppenders()).isEqualTo(before);
    }

    @Test
    void backsOffWithoutLogback() {
        this.contextRunner
                .withClassLoader(new FilteredClassLoader(LoggerContext.class))
                .run((context) -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).doesNotHaveBean(ExecutionLogs.class);
                    assertThat(context).doesNotHaveBean(ExecutionLogCapture.class);
                });
    }

    @Test
    void keepsTheReadingButCapturesNothingWhenCaptureIsOff() {
        long before = captureAppenders();
        this.contextRunner.withPropertyValues("dsched.logs.capture=false").run((context) -> {
            assertThat(context).hasSingleBean(ExecutionLogs.class);
            assertThat(context).doesNotHaveBean(ExecutionLogCapture.class);
            assertThat(captureAppenders()).isEqualTo(before);
        });
    }

    @Test
    void isOffWhenDschedIs() {
        this.contextRunner.withPropertyValues("dsched.enabled=false").run((context) -> {
            assertThat(context).hasNotFailed();
            assertThat(context).doesNotHaveBean(ExecutionLogs.class);
            assertThat(context).doesNotHaveBean(ExecutionLogCapture.class);
        });
    }

    @Test
    void backsOffWhenTheUserDefinesTheCapture() {
        this.contextRunner.withUserConfiguration(UserCapture.class).run((context) -> {
            assertThat(context).hasSingleBean(ExecutionLogCapture.class);
            assertThat(context.getBean(ExecutionLogCapture.class)).isSameAs(context.getBean("userCapture"));
        });
    }

    @Test
    void keepsTheLinesOfAnAttemptAtTheConfiguredLevelWithinTheConfiguredSize() {
        this.contextRunner
                .withPropertyValues("dsched.logs.level=warn", "dsched.logs.max-size=100B")
                .run((context) -> {
                    ExecutionLogCapture capture = context.getBean(ExecutionLogCapture.class);
                    ExecutionRecord attempt = new ExecutionRecord(
                            42L, "job", null, 1, "job@0", null, "node-1", null, null, null, null, null, null, null,
                            null, 0, null);
                    org.slf4j.Logger logger = LoggerFactory.getLogger("com.example.Job");

                    capture.started(attempt, Instant.now());
                    logger.info("below the level");
                    logger.warn("kept {}", "x".repeat(200));
                    capture.finished(attempt, Outcome.SUCCEEDED, Duration.ZERO, null);

                    assertThat(context.getBean(ExecutionLogs.class).find(42)).hasValueSatisfying((log) -> {
                        assertThat(log.truncated()).isTrue();
                        assertThat(log.lines()).hasSize(2);
                        assertThat(log.lines().get(0)).contains(" WARN com.example.Job - kept xxx");
                        assertThat(log.lines().get(1))
                                .isEqualTo("… truncated at 100 bytes: 0 more log events left out");
                    });
                });
    }

    /** The appenders of dsched's log capture on the root logger, one for each context capturing. */
    private static long captureAppenders() {
        Logger root = ((LoggerContext) LoggerFactory.getILoggerFactory()).getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        long count = 0;
        for (Iterator<Appender<ILoggingEvent>> appenders = root.iteratorForAppenders(); appenders.hasNext(); ) {
            if (appenders.next().getName().equals("DSCHED_EXECUTION_LOG")) {
                count++;
            }
        }
        return count;
    }

    @Configuration(proxyBeanMethods = false)
    static class UserCapture {

        @Bean
        ExecutionLogCapture userCapture(ExecutionLogs logs) {
            return new ExecutionLogCapture(logs, LogLevel.ERROR.name(), DataSize.ofKilobytes(1), Clock.systemUTC());
        }
    }
}
