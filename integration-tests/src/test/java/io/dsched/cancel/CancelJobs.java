package io.dsched.cancel;

import io.dsched.annotation.JobHandler;
import io.dsched.execution.JobContext;
import io.dsched.retry.Retry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The application of the cancel tests: handlers that each treat a request to stop them in their
 * own way, every one with retries left, so that a cancelled attempt that were retried would show.
 * What each saw is recorded in memory, across all nodes of the JVM.
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
public class CancelJobs {

    /** What the runs of each handler saw, by execution id. */
    static final Map<Long, List<String>> SEEN = new ConcurrentHashMap<>();

    /** Holds the runs of the blocked handler until a test releases them. */
    static volatile CountDownLatch BLOCKED = new CountDownLatch(1);

    static void reset() {
        SEEN.clear();
        BLOCKED = new CountDownLatch(1);
    }

    static List<String> seen(long executionId) {
        return SEEN.getOrDefault(executionId, List.of());
    }

    private static void see(JobContext context, String what) {
        SEEN.computeIfAbsent(context.executionId(), (id) -> new CopyOnWriteArrayList<>())
                .add(what + " on " + context.nodeId());
    }

    @Bean
    SimpleMeterRegistry meterRegistry() {
        return new SimpleMeterRegistry();
    }

    @Bean
    Handlers cancelHandlers() {
        return new Handlers();
    }

    /** The handlers. */
    public static class Handlers {

        /** Returns at once. */
        @JobHandler(value = "quick", retry = @Retry(maxAttempts = 3, delay = "100ms"))
        public void quick(JobContext context) {
            see(context, "ran");
        }

        /** Fails on its first attempt, succeeds on later ones. */
        @JobHandler(value = "failing-once", retry = @Retry(maxAttempts = 3, delay = "3s", jitter = "0ms"))
        public void failingOnce(JobContext context) {
            see(context, "ran");
            if (context.attempt() == 1) {
                throw new IllegalStateException("first attempt fails");
            }
        }

        /** Works in small steps and returns as soon as it is asked to stop. */
        @JobHandler(value = "cooperative", retry = @Retry(maxAttempts = 3, delay = "100ms"))
        public void cooperative(JobContext context) {
            see(context, "ran");
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (System.nanoTime() < end) {
                if (context.isCancelled()) {
                    see(context, "cancelled");
                    return;
                }
                Thread.onSpinWait();
            }
        }

        /** Never looks at its context, but waits interruptibly: its interrupt ends it. */
        @JobHandler(value = "sleepy", retry = @Retry(maxAttempts = 3, delay = "100ms"))
        public void sleepy(JobContext context) throws InterruptedException {
            see(context, "ran");
            try {
                Thread.sleep(30_000);
            } catch (InterruptedException ex) {
                see(context, "interrupted");
                throw ex;
            }
        }

        /** Ignores its context and swallows interrupts; runs past its timeout. */
        @JobHandler(value = "deaf", timeout = "2s", retry = @Retry(maxAttempts = 3, delay = "100ms"))
        public void deaf(JobContext context) {
            see(context, "ran");
            long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(2500);
            while (System.nanoTime() < end) {
                try {
                    Thread.sleep(20);
                } catch (InterruptedException ex) {
                    see(context, "interrupt ignored");
                }
            }
        }

        /** Waits until the test releases it, then fails. */
        @JobHandler(value = "blocked", retry = @Retry(maxAttempts = 3, delay = "100ms"))
        public void blocked(JobContext context) throws InterruptedException {
            see(context, "ran");
            BLOCKED.await(30, TimeUnit.SECONDS);
            throw new IllegalStateException("failed after the hold");
        }
    }
}
