package io.dsched.internal.observation;

import io.dsched.annotation.DistributedScheduled;
import io.dsched.annotation.JobHandler;
import io.dsched.execution.JobContext;
import io.dsched.retry.Retry;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The application of the observation tests without a tracer: jobs whose crons are never due in a
 * test, so that the test delivers their fires, and a one-off handler that fails its first attempt.
 * {@link TracedJobs} adds a tracer.
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
public class ObservationJobs {

    static final String NEVER = "0 0 0 1 1 *";

    @Bean
    Jobs jobs(ObjectProvider<Tracer> tracer) {
        return new Jobs(tracer);
    }

    /** The jobs. */
    public static class Jobs {

        private final ObjectProvider<Tracer> tracer;

        Jobs(ObjectProvider<Tracer> tracer) {
            this.tracer = tracer;
        }

        /** Succeeds, with a span of its own inside when there is a tracer. */
        @DistributedScheduled(name = "steady", cron = NEVER)
        public void steady() {
            this.tracer.ifAvailable((tracer) -> {
                Span inner = tracer.nextSpan().name("inner").start();
                try (Tracer.SpanInScope scope = tracer.withSpan(inner)) {
                    inner.event("working");
                } finally {
                    inner.end();
                }
            });
        }

        /** Fails twice, then succeeds. */
        @DistributedScheduled(
                name = "flaky",
                cron = NEVER,
                retry = @Retry(maxRetries = 3, delay = "100ms", jitter = "0ms"))
        public void flaky(JobContext context) {
            if (context.attempt() < 3) {
                throw new IllegalStateException("flaky failure on attempt " + context.attempt());
            }
        }

        /** Fails its first attempt, then succeeds. */
        @JobHandler(value = "remind", retry = @Retry(maxRetries = 2, delay = "100ms", jitter = "0ms"))
        public void remind(String message, JobContext context) {
            if (context.attempt() == 1) {
                throw new IllegalStateException("mail server busy");
            }
        }
    }
}
