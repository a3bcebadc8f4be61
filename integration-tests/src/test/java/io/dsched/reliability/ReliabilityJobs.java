package io.dsched.reliability;

import io.dsched.annotation.DistributedScheduled;
import io.dsched.annotation.JobHandler;
import io.dsched.definition.MisfirePolicy;
import io.dsched.execution.JobContext;
import io.dsched.retry.NonRetryableJobException;
import io.dsched.retry.Retry;
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
 * The application of the reliability tests. Jobs are registered with a cron that is never due in
 * a test (the first second of a year), so that tests deliver fires themselves; every invocation
 * is counted in memory, across all nodes of the JVM.
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
public class ReliabilityJobs {

    static final String NEVER = "0 0 0 1 1 *";

    static final Map<String, List<Invocation>> INVOCATIONS = new ConcurrentHashMap<>();

    /** How many more times the flaky job fails before it succeeds. */
    static final AtomicInteger FLAKY_FAILURES = new AtomicInteger();

    static void reset() {
        INVOCATIONS.clear();
        REMINDERS.clear();
        FLAKY_FAILURES.set(0);
    }

    static List<Invocation> invocations(String job) {
        return INVOCATIONS.getOrDefault(job, List.of());
    }

    private static void record(JobContext context) {
        INVOCATIONS
                .computeIfAbsent(context.jobName(), (name) -> new CopyOnWriteArrayList<>())
                .add(new Invocation(context.scheduledAt(), context.attempt(), context.nodeId(), Instant.now()));
    }

    @Bean
    Jobs jobs() {
        return new Jobs();
    }

    @Bean
    Handlers handlers() {
        return new Handlers();
    }

    /** Reminders the reminder handler received. */
    static final List<Reminder> REMINDERS = new CopyOnWriteArrayList<>();

    /**
     * The payload of the reminder handler.
     *
     * @param orderId the order
     * @param level how insistent
     */
    record Reminder(String orderId, int level) {}

    /** The handlers of one-off jobs. */
    public static class Handlers {

        @JobHandler("reminder")
        public void remind(Reminder reminder, JobContext context) {
            record(context);
            REMINDERS.add(reminder);
        }

        /** Waits until {@link #HELD} is released, for 30 s at most, then fails. */
        @JobHandler(value = "hold-then-fail", retry = @Retry(maxAttempts = 3, delay = "100ms"))
        public void holdThenFail(JobContext context) throws InterruptedException {
            record(context);
            HELD.await(30, TimeUnit.SECONDS);
            throw new IllegalStateException("failed after the hold");
        }
    }

    /** Holds the runs of the hold-then-fail handler until a test releases them. */
    static volatile CountDownLatch HELD = new CountDownLatch(1);

    /**
     * One invocation of a job.
     *
     * @param scheduledAt the fire
     * @param attempt the attempt
     * @param nodeId the node
     * @param at when it started
     */
    record Invocation(Instant scheduledAt, int attempt, String nodeId, Instant at) {}

    /** The jobs. */
    public static class Jobs {

        @DistributedScheduled(
                name = "flaky",
                cron = NEVER,
                retry = @Retry(maxRetries = 3, delay = "1s", multiplier = 2, jitter = "0ms"))
        public void flaky(JobContext context) {
            record(context);
            if (FLAKY_FAILURES.getAndDecrement() > 0) {
                throw new IllegalStateException("flaky failure on attempt " + context.attempt());
            }
        }

        @DistributedScheduled(name = "poison", cron = NEVER, retry = @Retry(maxRetries = 3, delay = "100ms"))
        public void poison(JobContext context) {
            record(context);
            if (context.attempt() == 1) {
                throw new NonRetryableJobException("order 42 has no customer");
            }
        }

        @DistributedScheduled(
                name = "exhausted",
                cron = NEVER,
                retry = @Retry(maxAttempts = 2, delay = "100ms", jitter = "0ms"))
        public void exhausted(JobContext context) {
            record(context);
            throw new IllegalStateException("partner down on attempt " + context.attempt());
        }

        @DistributedScheduled(
                name = "sluggish",
                cron = NEVER,
                timeout = "300ms",
                retry = @Retry(maxRetries = 1, delay = "100ms", jitter = "0ms"))
        public void sluggish(JobContext context) throws InterruptedException {
            record(context);
            // far longer than the job's timeout: the run is interrupted
            Thread.sleep(30_000);
        }

        @DistributedScheduled(name = "beat", cron = "${test.beat.cron:-}")
        public void beat(JobContext context) {
            record(context);
        }

        /** Waits until {@link #HELD} is released, for 30 s at most, then succeeds. */
        @DistributedScheduled(name = "held-then-succeed", cron = NEVER)
        public void held(JobContext context) throws InterruptedException {
            record(context);
            HELD.await(30, TimeUnit.SECONDS);
        }

        @DistributedScheduled(name = "steady", cron = NEVER)
        public void steady(JobContext context) {
            record(context);
        }

        @DistributedScheduled(name = "newcomer", cron = "${test.newcomer.cron:-}")
        public void newcomer(JobContext context) {
            record(context);
        }

        @DistributedScheduled(name = "missed", cron = NEVER, misfire = MisfirePolicy.RUN_ONCE)
        public void missed(JobContext context) {
            record(context);
        }

        @DistributedScheduled(name = "skipped", cron = NEVER, misfire = MisfirePolicy.SKIP)
        public void skipped(JobContext context) {
            record(context);
        }

        @DistributedScheduled(
                name = "shapeshifter",
                cron = "${test.shapeshifter.cron:0 0 0 1 1 *}",
                fixedRate = "${test.shapeshifter.rate:}")
        public void shapeshifter(JobContext context) {
            record(context);
        }
    }
}
