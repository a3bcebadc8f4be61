package io.dsched.internal.cluster;

import io.dsched.annotation.DistributedScheduled;
import io.dsched.execution.JobContext;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The application of the cluster tests. Every job is off unless a test sets its cron, and every
 * invocation is counted in memory, shared by all nodes of the JVM, as the ground truth that the
 * execution table is checked against.
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
public class TestJobs {

    /** Invocations of each job by scheduled time, across every node in this JVM. */
    static final Map<String, Map<Instant, List<String>>> INVOCATIONS = new ConcurrentHashMap<>();

    /** Runs that started before the time their fire was scheduled for, as "job@time on node". */
    static final List<String> EARLY = new CopyOnWriteArrayList<>();

    /**
     * When each run of a job with work began and ended, by this JVM's clock, which every node of
     * the JVM shares: the times a run records in the database are each node's estimate of the
     * database's clock, and two nodes' estimates differ by up to half a heartbeat's round trip.
     */
    static final Map<String, List<Span>> SPANS = new ConcurrentHashMap<>();

    static void reset() {
        INVOCATIONS.clear();
        EARLY.clear();
        SPANS.clear();
    }

    /**
     * One run of a job, by this JVM's clock.
     * @param scheduledAt the fire it ran
     * @param began when the method began
     * @param ended when its work ended
     */
    record Span(Instant scheduledAt, Instant began, Instant ended) {}

    static List<Span> spans(String job) {
        return SPANS.getOrDefault(job, List.of()).stream()
                .sorted(Comparator.comparing(Span::began))
                .toList();
    }

    /** Records the invocation, does work for the given time, and records the run's span. */
    static void work(JobContext context, Duration work) throws InterruptedException {
        Instant began = Instant.now();
        record(context);
        // the work of the job
        Thread.sleep(work.toMillis());
        SPANS.computeIfAbsent(context.jobName(), (name) -> new CopyOnWriteArrayList<>())
                .add(new Span(context.scheduledAt(), began, Instant.now()));
    }

    static Map<Instant, List<String>> invocations(String job) {
        return INVOCATIONS.getOrDefault(job, Map.of());
    }

    static void record(JobContext context) {
        if (Instant.now().isBefore(context.scheduledAt())) {
            EARLY.add(context.jobName() + "@" + context.scheduledAt() + " on " + context.nodeId());
        }
        INVOCATIONS
                .computeIfAbsent(context.jobName(), (name) -> new ConcurrentHashMap<>())
                .computeIfAbsent(context.scheduledAt(), (time) -> new CopyOnWriteArrayList<>())
                .add(context.nodeId());
    }

    @Bean
    Jobs jobs() {
        return new Jobs();
    }

    /** The jobs. */
    public static class Jobs {

        @DistributedScheduled(name = "tick", cron = "${test.tick.cron:-}")
        public void tick(JobContext context) {
            record(context);
        }

        @DistributedScheduled(name = "slow", cron = "${test.slow.cron:-}")
        public void slow(JobContext context) throws InterruptedException {
            // the work of a job that runs longer than its one-second interval
            work(context, Duration.ofMillis(2500));
        }

        @DistributedScheduled(name = "once", cron = "${test.once.cron:-}")
        public void once(JobContext context) {
            record(context);
        }

        @DistributedScheduled(name = "evolving", cron = "${test.evolving.cron:-}")
        public void evolving(JobContext context) {
            record(context);
        }
    }
}
