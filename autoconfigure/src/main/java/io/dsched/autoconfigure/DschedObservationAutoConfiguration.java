package io.dsched.autoconfigure;

import io.dsched.internal.definition.JobRegistry;
import io.dsched.internal.engine.NodeId;
import io.dsched.internal.execution.AttemptObserver;
import io.dsched.internal.jobs.SubmissionObserver;
import io.dsched.internal.metrics.DschedMetrics;
import io.dsched.internal.observation.ExecutionObservations;
import io.dsched.internal.observation.SubmitObservations;
import io.dsched.internal.store.ExecutionStore;
import io.dsched.observation.DefaultExecutionObservationConvention;
import io.dsched.observation.ExecutionObservationConvention;
import io.dsched.observation.SubmitObservationConvention;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Observes every attempt ({@code dsched.execution}) and every submission ({@code dsched.submit})
 * in the application's {@link ObservationRegistry}, which Spring Boot provides with Actuator;
 * with a tracer (Micrometer Tracing) each observation is a span. Without a registry nothing is
 * observed and no trace context is stored.
 */
@AutoConfiguration(after = {DschedAutoConfiguration.class, DschedMetricsAutoConfiguration.class})
@ConditionalOnBean(JobRegistry.class)
@ConditionalOnProperty(prefix = "dsched.observation", name = "enabled", havingValue = "true", matchIfMissing = true)
public final class DschedObservationAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(AttemptObserver.class)
    ExecutionObservations dschedExecutionObservations(
            ObjectProvider<ObservationRegistry> registry,
            ObjectProvider<ExecutionObservationConvention> convention,
            ExecutionStore store,
            NodeId nodeId) {
        return new ExecutionObservations(
                registry.getIfAvailable(() -> ObservationRegistry.NOOP),
                convention.getIfAvailable(),
                store::traceCarrier,
                nodeId.value());
    }

    @Bean
    @ConditionalOnMissingBean(SubmissionObserver.class)
    SubmitObservations dschedSubmitObservations(
            ObjectProvider<ObservationRegistry> registry, ObjectProvider<SubmitObservationConvention> convention) {
        return new SubmitObservations(
                registry.getIfAvailable(() -> ObservationRegistry.NOOP), convention.getIfAvailable());
    }

    // with dsched's own meters, a meter registry's observation handler would time every attempt
    // again, as a dsched.execution timer with other tags (and an error tag), which Prometheus
    // refuses and other registries count twice: only dsched's own timer is kept
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(MeterFilter.class)
    @ConditionalOnBean(DschedMetrics.class)
    static class MeterConfiguration {

        @Bean
        MeterFilter dschedExecutionObservationMeterFilter() {
            return MeterFilter.deny((id) ->
                    DefaultExecutionObservationConvention.NAME.equals(id.getName()) && id.getTag("error") != null);
        }
    }
}
