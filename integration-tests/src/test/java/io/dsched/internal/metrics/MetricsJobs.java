package io.dsched.internal.metrics;

import io.dsched.annotation.DistributedScheduled;
import io.dsched.execution.JobContext;
import io.dsched.retry.Retry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The application of the metrics tests: jobs whose crons are never due in a test, so that the
 * test delivers their fires, and a Prometheus registry to scrape.
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
public class MetricsJobs {

    static final String NEVER = "0 0 0 1 1 *";

    @Bean
    PrometheusMeterRegistry prometheusMeterRegistry() {
        return new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    }

    @Bean
    Jobs jobs() {
        return new Jobs();
    }

    /** The jobs. */
    public static class Jobs {

        @DistributedScheduled(name = "steady", cron = NEVER)
        public void steady() {}

        @DistributedScheduled(
                name = "flaky",
                cron = NEVER,
                retry = @Retry(maxRetries = 3, delay = "100ms", jitter = "0ms"))
        public void flaky(JobContext context) {
            if (context.attempt() < 3) {
                throw new IllegalStateException("flaky failure on attempt " + context.attempt());
            }
        }

        @DistributedScheduled(
                name = "doomed",
                cron = NEVER,
                retry = @Retry(maxAttempts = 2, delay = "100ms", jitter = "0ms"))
        public void doomed(JobContext context) {
            throw new IllegalStateException("partner down on attempt " + context.attempt());
        }

        @DistributedScheduled(name = "hourly", cron = "0 0 * * * *")
        public void hourly() {}
    }
}
