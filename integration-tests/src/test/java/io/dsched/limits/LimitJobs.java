package io.dsched.limits;

import io.dsched.annotation.JobHandler;
import io.dsched.execution.ExecutionListener;
import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.JobContext;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The application of the concurrency limit tests: handlers with a cluster-wide {@code
 * maxConcurrent}, which count how many of their runs are in their bodies at once, across every
 * node of the JVM, and record the node each run ran on.
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
public class LimitJobs {

    /** Runs in their bodies right now, and the most at once, by handler. */
    static final Map<String, AtomicInteger> RUNNING = new ConcurrentHashMap<>();

    static final Map<String, AtomicInteger> MOST = new ConcurrentHashMap<>();

    /** The nodes each run ran on, by handler, then by idempotency key. */
    static final Map<String, Map<String, List<String>>> RUNS = new ConcurrentHashMap<>();

    /** Holds the runs of {@code held} until released. */
    static volatile CountDownLatch held = new CountDownLatch(1);

    static void reset() {
        RUNNING.clear();
        MOST.clear();
        RUNS.clear();
        CLAIMS.clear();
        held = new CountDownLatch(1);
    }

    static int most(String handler) {
        return MOST.getOrDefault(handler, new AtomicInteger()).get();
    }

    static int running(String handler) {
        return RUNNING.getOrDefault(handler, new AtomicInteger()).get();
    }

    static Map<String, List<String>> runs(String handler) {
        return RUNS.getOrDefault(handler, Map.of());
    }

    private static void run(JobContext context, Runnable body) {
        run(context.jobName(), context, body);
    }

    /** Runs a body, counted under a name of its own: a handler's, or a handler's key's. */
    private static void run(String handler, JobContext context, Runnable body) {
        RUNS.computeIfAbsent(handler, (name) -> new ConcurrentHashMap<>())
                .computeIfAbsent(context.idempotencyKey(), (key) -> new CopyOnWriteArrayList<>())
                .add(context.nodeId());
        int now =
                RUNNING.computeIfAbsent(handler, (name) -> new AtomicInteger()).incrementAndGet();
        MOST.computeIfAbsent(handler, (name) -> new AtomicInteger()).accumulateAndGet(now, Math::max);
        try {
            body.run();
        } finally {
            RUNNING.get(handler).decrementAndGet();
        }
    }

    private static void work(long millis) {
        // stands for the work of a call to a rate-limited API
        try {
            Thread.sleep(millis);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    /** When each attempt of {@code paced} was claimed, by the claiming node's clock. */
    static final List<Instant> CLAIMS = new CopyOnWriteArrayList<>();

    /**
     * The node's meters, which the gauges of limits are bound to.
     * @return the registry
     */
    @Bean
    SimpleMeterRegistry meterRegistry() {
        return new SimpleMeterRegistry();
    }

    @Bean
    Handlers limitHandlers() {
        return new Handlers();
    }

    /**
     * Hears of each attempt as it starts, with its claim.
     * @return the listener
     */
    @Bean
    ExecutionListener claimsOfPaced() {
        return new ExecutionListener() {
            @Override
            public void started(ExecutionRecord attempt, Instant startedAt) {
                if ("paced".equals(attempt.jobName())) {
                    CLAIMS.add(attempt.startedAt());
                }
            }
        };
    }

    /**
     * The payload of {@code tenant}: its concurrency limit counts each tenant apart.
     * @param tenant whose work it is
     * @param n which of the tenant's
     */
    public record TenantWork(String tenant, int n) {}

    /** The handlers. */
    public static class Handlers {

        @JobHandler(value = "limited", maxConcurrent = 3)
        public void limited(JobContext context) {
            run(context, () -> work(20));
        }

        @JobHandler(value = "tenant", maxConcurrent = 3, partitionBy = "/tenant")
        public void tenant(TenantWork work, JobContext context) {
            // counted as a whole, and by tenant; the few attempts of the other tenants than the first
            // last longer, so that three of each are seen at once on a loaded machine too
            long millis = work.tenant().equals("tenant-0") ? 20 : 60;
            run(context, () -> run("tenant:" + work.tenant(), context, () -> work(millis)));
        }

        @JobHandler(value = "mutex", maxConcurrent = 1)
        public void mutex(JobContext context) {
            run(context, () -> work(5));
        }

        @JobHandler(value = "open")
        public void open(JobContext context) {
            run(context, () -> work(20));
        }

        @JobHandler(value = "paced", rate = "50/1s")
        public void paced(JobContext context) {
            run(context, () -> {});
        }

        @JobHandler(value = "held", maxConcurrent = 2)
        public void held(JobContext context) {
            run(context, () -> {
                try {
                    held.await(60, TimeUnit.SECONDS);
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                }
            });
        }
    }
}
