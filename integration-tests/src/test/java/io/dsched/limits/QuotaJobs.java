package io.dsched.limits;

import io.dsched.annotation.Adaptive;
import io.dsched.annotation.JobHandler;
import io.dsched.execution.ExecutionListener;
import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.JobContext;
import io.dsched.execution.LoadSignal;
import io.dsched.retry.Retry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The application of the quota and adaptive limit tests: handlers with a cluster-wide
 * {@code quota}, and with a {@code maxConcurrent} that adapts to their failures and to a load
 * signal; a "downstream" the tests take down and bring back, and a signal they raise. Each handler
 * counts its runs in their bodies at once, across every node of the JVM.
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
public class QuotaJobs {

    /** Runs in their bodies right now, and the most at once since last reset, by handler. */
    static final Map<String, AtomicInteger> RUNNING = new ConcurrentHashMap<>();

    static final Map<String, AtomicInteger> MOST = new ConcurrentHashMap<>();

    /** When each run of a handler started, by its claim, and how many runs it had. */
    static final Map<String, List<Instant>> STARTS = new ConcurrentHashMap<>();

    /**
     * When each attempt was claimed, by the claiming node's clock, and by which node, by handler: what
     * the limits count (the history keeps when a success's body started, which may be later).
     */
    static final Map<String, List<Claim>> CLAIMS = new ConcurrentHashMap<>();

    /**
     * An attempt's claim.
     * @param at when, by the claiming node's clock
     * @param node which node
     * @param key its limit key, or {@code null}
     */
    record Claim(Instant at, String node, String key) {}

    /** Whether the adaptive handlers' downstream fails every call. */
    static volatile boolean down;

    /** Whether the load signal says the signalled handler's work is overloaded. */
    static volatile boolean overloaded;

    static void reset() {
        RUNNING.clear();
        MOST.clear();
        STARTS.clear();
        CLAIMS.clear();
        down = false;
        overloaded = false;
    }

    static int most(String handler) {
        return MOST.getOrDefault(handler, new AtomicInteger()).get();
    }

    static void forgetMost(String handler) {
        MOST.computeIfAbsent(handler, (name) -> new AtomicInteger()).set(0);
    }

    static int running(String handler) {
        return RUNNING.getOrDefault(handler, new AtomicInteger()).get();
    }

    static List<Instant> starts(String handler) {
        return STARTS.getOrDefault(handler, List.of());
    }

    /** The claims of a handler's attempts, in the order of their times. */
    static List<Claim> claims(String handler) {
        return CLAIMS.getOrDefault(handler, List.of()).stream()
                .sorted(java.util.Comparator.comparing(Claim::at))
                .toList();
    }

    private static void run(JobContext context, long millis, boolean fails) {
        String handler = context.jobName();
        STARTS.computeIfAbsent(handler, (name) -> new CopyOnWriteArrayList<>()).add(Instant.now());
        int now =
                RUNNING.computeIfAbsent(handler, (name) -> new AtomicInteger()).incrementAndGet();
        MOST.computeIfAbsent(handler, (name) -> new AtomicInteger()).accumulateAndGet(now, Math::max);
        try {
            // stands for a call to a downstream service
            Thread.sleep(millis);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        } finally {
            RUNNING.get(handler).decrementAndGet();
        }
        if (fails) {
            throw new IllegalStateException("the downstream is down");
        }
    }

    @Bean
    SimpleMeterRegistry meterRegistry() {
        return new SimpleMeterRegistry();
    }

    /**
     * Hears of each attempt as it starts, with its claim.
     * @return the listener
     */
    @Bean
    ExecutionListener claimsOfAttempts() {
        return new ExecutionListener() {
            @Override
            public void started(ExecutionRecord attempt, Instant startedAt) {
                CLAIMS.computeIfAbsent(attempt.jobName(), (name) -> new CopyOnWriteArrayList<>())
                        .add(new Claim(attempt.startedAt(), attempt.nodeId(), attempt.limitKey()));
            }
        };
    }

    @Bean
    Handlers quotaHandlers() {
        return new Handlers();
    }

    /**
     * Says the signalled handler's work is overloaded while the tests say so.
     * @return the signal
     */
    @Bean
    LoadSignal overloadSignal() {
        return (handler) -> overloaded && "signalled".equals(handler);
    }

    /**
     * The payload of {@code keyed}: its rate counts each tenant apart.
     * @param tenant whose work it is
     * @param n which of the tenant's
     */
    public record Tenant(String tenant, int n) {}

    /** The handlers. */
    public static class Handlers {

        @JobHandler(value = "quoted", quota = "20/100d")
        public void quoted(JobContext context) {
            run(context, 0, false);
        }

        @JobHandler(value = "windowed", quota = "30/2s")
        public void windowed(JobContext context) {
            run(context, 0, false);
        }

        @JobHandler(value = "keyed", partitionBy = "/tenant", keyRate = "10/1s")
        public void keyed(Tenant tenant, JobContext context) {
            run(context, 0, false);
        }

        @JobHandler(value = "noded", nodeRate = "20/1s")
        public void noded(JobContext context) {
            run(context, 0, false);
        }

        @JobHandler(
                value = "adaptive",
                maxConcurrent = 8,
                retry = @Retry(maxAttempts = 1),
                adaptive = @Adaptive(failureRatio = 0.5, window = "500ms", minOutcomes = 4, min = 1))
        public void adaptive(JobContext context) {
            run(context, 100, down);
        }

        @JobHandler(
                value = "signalled",
                maxConcurrent = 6,
                adaptive = @Adaptive(failureRatio = 0.5, window = "500ms", min = 2))
        public void signalled(JobContext context) {
            run(context, 100, false);
        }
    }
}
