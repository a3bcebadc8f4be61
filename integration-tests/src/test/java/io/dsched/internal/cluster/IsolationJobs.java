package io.dsched.internal.cluster;

import io.dsched.annotation.DistributedScheduled;
import io.dsched.annotation.JobHandler;
import io.dsched.execution.JobContext;
import io.dsched.retry.Retry;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The application of the cluster isolation tests, run by the nodes of every cluster with the same
 * job names. Every invocation is recorded in memory with the cluster of the node that ran it, as
 * the ground truth that each cluster's history is checked against.
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
public class IsolationJobs {

    static final String NEVER = "0 0 0 1 1 *";

    static final String EVERY_SECOND = "* * * * * *";

    /** The fire of {@code hold} that holds its job's lock until {@link #HOLD} is released. */
    static final Instant HOLD_AT = Instant.parse("2031-01-01T00:00:00Z");

    /** The fire of {@code crash} whose first attempt runs until {@link #CRASH} is released. */
    static final Instant CRASH_AT = Instant.parse("2031-06-01T00:00:00Z");

    static final List<Invocation> INVOCATIONS = new CopyOnWriteArrayList<>();

    static volatile CountDownLatch HOLD = new CountDownLatch(0);

    static volatile CountDownLatch CRASH = new CountDownLatch(0);

    static void reset() {
        INVOCATIONS.clear();
        HOLD = new CountDownLatch(0);
        CRASH = new CountDownLatch(0);
    }

    static List<Invocation> invocations(String cluster, String job) {
        return INVOCATIONS.stream()
                .filter((run) -> run.cluster().equals(cluster) && run.job().equals(job))
                .toList();
    }

    @Bean
    Jobs jobs(@Value("${dsched.cluster.name:dsched}") String cluster) {
        return new Jobs(cluster);
    }

    /**
     * One run of a job or handler.
     *
     * @param cluster the cluster of the node that ran it
     * @param node the node
     * @param job the job or handler
     * @param scheduledAt its fire time
     * @param attempt its attempt
     * @param ref for a one-off, the reference in its letter
     * @param from for a one-off, the cluster its letter says it was submitted in
     */
    record Invocation(
            String cluster, String node, String job, Instant scheduledAt, int attempt, String ref, String from) {}

    /**
     * The payload of {@code mail}.
     *
     * @param from the cluster that submitted it
     * @param ref what it is about
     */
    public record Letter(String from, String ref) {}

    /** The jobs, declared alike in every cluster. */
    public static class Jobs {

        private final String cluster;

        Jobs(String cluster) {
            this.cluster = cluster;
        }

        @DistributedScheduled(name = "tick", cron = "${test.tick.cron:" + NEVER + "}")
        public void tick(JobContext context) {
            record(context, null, null);
        }

        @DistributedScheduled(name = "hold", cron = "${test.hold.cron:" + NEVER + "}")
        public void hold(JobContext context) throws InterruptedException {
            record(context, null, null);
            if (context.scheduledAt().equals(HOLD_AT)) {
                HOLD.await(60, TimeUnit.SECONDS);
            }
        }

        @DistributedScheduled(name = "crash", cron = NEVER)
        public void crash(JobContext context) throws InterruptedException {
            record(context, null, null);
            if (context.attempt() == 1) {
                CRASH.await(60, TimeUnit.SECONDS);
            }
        }

        @DistributedScheduled(name = "doomed", cron = NEVER, retry = @Retry(maxAttempts = 1))
        public void doomed(JobContext context) {
            record(context, null, null);
            throw new IllegalStateException("doomed fails in " + this.cluster);
        }

        @DistributedScheduled(name = "quiet", cron = NEVER)
        public void quiet(JobContext context) {
            record(context, null, null);
        }

        @JobHandler("mail")
        public void mail(Letter letter, JobContext context) {
            record(context, letter.ref(), letter.from());
        }

        @JobHandler("statement")
        public void statement(JobContext context) {
            record(context, null, null);
        }

        private void record(JobContext context, String ref, String from) {
            INVOCATIONS.add(new Invocation(
                    this.cluster,
                    context.nodeId(),
                    context.jobName(),
                    context.scheduledAt(),
                    context.attempt(),
                    ref,
                    from));
        }
    }
}
