package io.dsched.priority;

import io.dsched.annotation.JobHandler;
import io.dsched.execution.JobContext;
import io.dsched.retry.Retry;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The application of the priority tests: a handler of bulk work of the default priority, and one of
 * urgent work of a higher one, each recording when its runs started.
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
public class PriorityJobs {

    /** When each run started, by idempotency key. */
    static final Map<String, Instant> STARTED = new ConcurrentHashMap<>();

    /** How many runs of {@code bulk} started. */
    static final AtomicInteger BULK_STARTED = new AtomicInteger();

    /** How many runs of {@code metered} started. */
    static final AtomicInteger METERED_STARTED = new AtomicInteger();

    /** How many runs of {@code bulk} had started when each run started, by idempotency key. */
    static final Map<String, Integer> BULK_BEFORE = new ConcurrentHashMap<>();

    static void reset() {
        STARTED.clear();
        BULK_BEFORE.clear();
        BULK_STARTED.set(0);
        METERED_STARTED.set(0);
    }

    @Bean
    Handlers priorityHandlers() {
        return new Handlers();
    }

    /**
     * The payload of {@code fragile}.
     * @param tenant whose work it is
     */
    public record Tenant(String tenant) {}

    /** The handlers. */
    public static class Handlers {

        @JobHandler("bulk")
        public void bulk(JobContext context) {
            started(context);
            BULK_STARTED.incrementAndGet();
            // stands for a little work of a backlog
            work(10);
        }

        @JobHandler(value = "metered", maxConcurrent = 2)
        public void metered(JobContext context) {
            started(context);
            METERED_STARTED.incrementAndGet();
            work(10);
        }

        @JobHandler(
                value = "fragile",
                priority = 3,
                maxConcurrent = 5,
                partitionBy = "/tenant",
                retry = @Retry(maxAttempts = 2, delay = "50ms"))
        public void fragile(Tenant tenant) {
            throw new IllegalStateException("the partner of " + tenant.tenant() + " is down");
        }

        @JobHandler(value = "urgent", priority = 10)
        public void urgent(JobContext context) {
            started(context);
        }

        private static void started(JobContext context) {
            BULK_BEFORE.put(
                    context.idempotencyKey(),
                    "metered".equals(context.jobName()) ? METERED_STARTED.get() : BULK_STARTED.get());
            STARTED.put(context.idempotencyKey(), Instant.now());
        }

        private static void work(long millis) {
            try {
                Thread.sleep(millis);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
