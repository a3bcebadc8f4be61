package io.dsched.groups;

import io.dsched.annotation.DistributedScheduled;
import io.dsched.annotation.JobHandler;
import io.dsched.execution.JobContext;
import java.time.Duration;
import java.time.Instant;
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
 * The application of the node group tests: a scheduled job and a one-off handler of the group
 * {@code reports}, and a scheduled job of the default group; for the worker pools, three slow
 * scheduled jobs and a slow handler of {@code reports}, held until released, and a one-off handler
 * of the default group. Every node declares all of them;
 * which of them it runs is up to {@code dsched.node.groups}. Each run is recorded, by its fire's
 * idempotency key, with the node it ran on, across every node of the JVM.
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
public class GroupJobs {

    /** The nodes each run ran on, by job, then by idempotency key. */
    static final Map<String, Map<String, List<String>>> RUNS = new ConcurrentHashMap<>();

    /** How late each run of the default group's job started after its fire's time. */
    static final List<Duration> TICK_LAGS = new CopyOnWriteArrayList<>();

    /** Holds the slow jobs of the group {@code reports} until released. */
    static volatile CountDownLatch slow = new CountDownLatch(1);

    /** Whether the slow scheduled jobs hold their workers; until then they return at once. */
    static volatile boolean slowFires;

    static void reset() {
        RUNS.clear();
        TICK_LAGS.clear();
        slow = new CountDownLatch(1);
        slowFires = false;
    }

    private static void holdSlowFire(JobContext context) {
        if (slowFires) {
            record(context);
            holdSlow();
        }
    }

    private static void holdSlow() {
        try {
            slow.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    static Map<String, List<String>> runs(String job) {
        return RUNS.getOrDefault(job, Map.of());
    }

    private static void record(JobContext context) {
        RUNS.computeIfAbsent(context.jobName(), (job) -> new ConcurrentHashMap<>())
                .computeIfAbsent(context.idempotencyKey(), (key) -> new CopyOnWriteArrayList<>())
                .add(context.nodeId());
    }

    @Bean
    Jobs groupedJobs() {
        return new Jobs();
    }

    /** The jobs. */
    public static class Jobs {

        @DistributedScheduled(name = "report", cron = "${test.report.cron:-}", group = "reports")
        public void report(JobContext context) {
            record(context);
        }

        @DistributedScheduled(name = "tick", cron = "${test.tick.cron:-}")
        public void tick(JobContext context) {
            TICK_LAGS.add(Duration.between(context.scheduledAt(), Instant.now()));
            record(context);
        }

        @DistributedScheduled(name = "slow-report-1", cron = "${test.slow.cron:-}", group = "reports")
        public void slowReportOne(JobContext context) {
            holdSlowFire(context);
        }

        @DistributedScheduled(name = "slow-report-2", cron = "${test.slow.cron:-}", group = "reports")
        public void slowReportTwo(JobContext context) {
            holdSlowFire(context);
        }

        @DistributedScheduled(name = "slow-report-3", cron = "${test.slow.cron:-}", group = "reports")
        public void slowReportThree(JobContext context) {
            holdSlowFire(context);
        }

        @JobHandler(value = "slow-render", group = "reports")
        public void slowRender(JobContext context) {
            record(context);
            holdSlow();
        }

        @JobHandler("quick")
        public void quick(JobContext context) {
            record(context);
        }

        @JobHandler(value = "render", group = "${test.render.group:reports}")
        public void render(JobContext context) {
            record(context);
        }
    }
}
