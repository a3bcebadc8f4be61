package io.dsched.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.Outcome;
import io.dsched.internal.execution.AttemptObserver;
import io.dsched.internal.jobs.SubmissionObserver;
import io.dsched.internal.observation.ExecutionObservations;
import io.dsched.internal.observation.SubmitObservations;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

class DschedObservationAutoConfigurationTests {

    private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    DataSourceAutoConfiguration.class,
                    DschedAutoConfiguration.class,
                    DschedObservationAutoConfiguration.class))
            .withPropertyValues("spring.datasource.url=jdbc:h2:mem:observation;DB_CLOSE_DELAY=-1");

    @Test
    void observesAttemptsInTheApplicationsRegistry() {
        this.contextRunner.withUserConfiguration(TestRegistry.class).run((context) -> {
            assertThat(context).hasSingleBean(SubmitObservations.class);
            context.getBean(AttemptObserver.class).start(attempt()).stop(Outcome.SUCCEEDED);

            assertThat(context.getBean(TestObservationRegistry.class))
                    .hasObservationWithNameEqualTo("dsched.execution")
                    .that()
                    .hasBeenStopped()
                    .hasLowCardinalityKeyValue("job", "settle");
        });
    }

    @Test
    void observesNothingWithoutARegistry() {
        this.contextRunner.run((context) -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(AttemptObserver.class).start(attempt())).isSameAs(AttemptObserver.Observed.NONE);
        });
    }

    @Test
    void backsOffWhenTurnedOff() {
        this.contextRunner
                .withUserConfiguration(TestRegistry.class)
                .withPropertyValues("dsched.observation.enabled=false")
                .run((context) -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context).doesNotHaveBean(ExecutionObservations.class);
                    assertThat(context).doesNotHaveBean(AttemptObserver.class);
                    assertThat(context).doesNotHaveBean(SubmissionObserver.class);
                });
    }

    @Test
    void keepsDschedsOwnTimerOfAttemptsWhenMeterRegistriesTimeObservationsToo() {
        this.contextRunner
                .withConfiguration(
                        AutoConfigurations.of(MetricsAutoConfiguration.class, DschedMetricsAutoConfiguration.class))
                .withUserConfiguration(MeteredRegistry.class)
                .run((context) -> {
                    context.getBean(AttemptObserver.class).start(attempt()).stop(Outcome.SUCCEEDED);

                    MeterRegistry meters = context.getBean(PrometheusMeterRegistry.class);
                    assertThat(meters.find("dsched.execution.active").longTaskTimer())
                            .as("the observation reached the meter handler")
                            .isNotNull();
                    assertThat(meters.find("dsched.execution").timers())
                            .isNotEmpty()
                            .allSatisfy((Timer timer) ->
                                    assertThat(timer.getId().getTag("error")).isNull());
                    assertThat(meters.find("dsched.execution")
                                    .tags("job", "settle", "outcome", "succeeded")
                                    .timer())
                            .isNull();
                });
    }

    private static ExecutionRecord attempt() {
        return ExecutionRecord.claim("settle", NOW, "node-1", NOW).withId(7);
    }

    @Configuration(proxyBeanMethods = false)
    static class TestRegistry {

        @Bean
        TestObservationRegistry observationRegistry() {
            return TestObservationRegistry.create();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class MeteredRegistry {

        @Bean
        PrometheusMeterRegistry prometheusMeterRegistry() {
            return new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        }

        @Bean
        ObservationRegistry observationRegistry(PrometheusMeterRegistry meters) {
            ObservationRegistry registry = ObservationRegistry.create();
            registry.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
            return registry;
        }
    }
}
