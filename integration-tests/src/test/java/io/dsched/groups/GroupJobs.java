package io.dsched.groups;

import io.dsched.annotation.DistributedScheduled;
import io.dsched.annotation.JobHandler;
import io.dsched.execution.JobContext;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The application of the node group tests: a scheduled job and a one-off handler of the group
 * {@code reports}, and a scheduled job of the default group. Every node declares all of them;
 * which of them it runs is up to {@code dsched.node.groups}. Each run is recorded, by its fire's
 * idempotency key, with the node it ran on, across every node of the JVM.
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
public class GroupJobs {

    /** The nodes each run ran on, by job, then by idempotency key. */
    static final Map<String, Map<String, List<String>>> RUNS = new ConcurrentHashMap<>();

    static void reset() {
        RUNS.clear();
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
            record(context);
        }

        @JobHandler(value = "render", group = "${test.render.group:reports}")
        public void render(JobContext context) {
            record(context);
        }
    }
}
