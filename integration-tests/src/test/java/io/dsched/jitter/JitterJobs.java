package io.dsched.jitter;

import io.dsched.definition.MisfirePolicy;
import io.dsched.definition.Schedule;
import io.dsched.execution.JobContext;
import io.dsched.internal.definition.JobDefinition;
import io.dsched.internal.definition.JobRegistry;
import io.dsched.internal.execution.NodeGroups;
import io.dsched.internal.retry.RetryPolicy;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The application of the jitter tests: {@value #JOBS} scheduled jobs on one cron, each with a
 * jitter window, declared as an application's {@code @DistributedScheduled} methods would be; each
 * run is recorded with its fire, its node and its start.
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
public class JitterJobs {

    static final int JOBS = 200;

    /** Each run: when it started, and on which node, by idempotency key. */
    static final Map<String, List<Run>> RUNS = new ConcurrentHashMap<>();

    static void reset() {
        RUNS.clear();
    }

    /**
     * Declares the jobs, before the engine starts.
     * @param registry the node's jobs
     * @param cron their schedule
     * @param jitter their jitter window
     * @return a marker
     */
    @Bean
    Object jitteredJobs(
            JobRegistry registry, @Value("${test.cron}") String cron, @Value("${test.jitter}") Duration jitter) {
        RetryPolicy once = new RetryPolicy(1, Duration.ZERO, 1, Duration.ZERO, Duration.ZERO, List.of(), List.of());
        for (int i = 0; i < JOBS; i++) {
            registry.register(new JobDefinition(
                    "spread-" + i,
                    new Schedule.Cron(cron, ZoneOffset.UTC),
                    MisfirePolicy.RUN_ONCE,
                    NodeGroups.DEFAULT,
                    once,
                    null,
                    null,
                    null,
                    jitter,
                    null,
                    "JitterJobs.spread-" + i,
                    JitterJobs::record));
        }
        return new Object();
    }

    private static void record(JobContext context) {
        RUNS.computeIfAbsent(context.idempotencyKey(), (key) -> new CopyOnWriteArrayList<>())
                .add(new Run(context.jobName(), context.scheduledAt(), Instant.now(), context.nodeId()));
    }

    /** A run of a fire. */
    record Run(String job, Instant scheduledAt, Instant startedAt, String node) {}
}
