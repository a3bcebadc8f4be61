package io.dsched.soak;

import io.dsched.annotation.JobHandler;
import io.dsched.execution.JobContext;
import io.dsched.retry.Retry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The application of the soak test: two handlers that fail at random in one run of twenty.
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
public class SoakJobs {

    /** Invocations by idempotency key, across every node of the JVM. */
    static final Map<String, AtomicInteger> INVOCATIONS = new ConcurrentHashMap<>();

    static final double FAILURE_RATE = 0.05;

    @Bean
    Handlers soakHandlers() {
        return new Handlers();
    }

    private static void work(JobContext context) {
        INVOCATIONS
                .computeIfAbsent(context.idempotencyKey(), (key) -> new AtomicInteger())
                .incrementAndGet();
        if (ThreadLocalRandom.current().nextDouble() < FAILURE_RATE) {
            throw new IllegalStateException("random failure of " + context.idempotencyKey());
        }
    }

    /** The handlers. */
    public static class Handlers {

        @JobHandler(value = "soak.recurring", retry = @Retry(maxRetries = 3, delay = "200ms", jitter = "50ms"))
        public void recurring(JobContext context) {
            work(context);
        }

        @JobHandler(value = "soak.oneoff", retry = @Retry(maxRetries = 3, delay = "200ms", jitter = "50ms"))
        public void oneOff(Integer number, JobContext context) {
            work(context);
        }
    }
}
