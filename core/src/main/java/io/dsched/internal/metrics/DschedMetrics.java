package io.dsched.internal.metrics;

import io.dsched.definition.Schedule;
import io.dsched.execution.ExecutionListener;
import io.dsched.execution.ExecutionOrigin;
import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.JobTimeoutException;
import io.dsched.execution.Outcome;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;
import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * dsched's Micrometer meters: what every attempt on this node did, and gauges of the cluster read
 * from the database. The job is a tag where it makes sense; no tag ever holds an execution id, so
 * the number of series is bounded by the jobs the application declares.
 *
 * <table>
 *   <caption>The meters, with their Prometheus names</caption>
 *   <tr><th>meter</th><th>Prometheus</th><th>tags</th></tr>
 *   <tr><td>{@code dsched.execution} timer</td><td>{@code dsched_execution_seconds}</td><td>job, outcome</td></tr>
 *   <tr><td>{@code dsched.fire.lag} timer</td><td>{@code dsched_fire_lag_seconds}</td><td>job</td></tr>
 *   <tr><td>{@code dsched.retries} counter</td><td>{@code dsched_retries_total}</td><td>job</td></tr>
 *   <tr><td>{@code dsched.dead.letters} counter</td><td>{@code dsched_dead_letters_total}</td><td>job</td></tr>
 *   <tr><td>{@code dsched.skipped} counter</td><td>{@code dsched_skipped_total}</td><td>job, reason</td></tr>
 *   <tr><td>{@code dsched.recoveries} counter</td><td>{@code dsched_recoveries_total}</td><td>job</td></tr>
 *   <tr><td>{@code dsched.job.last.success.timestamp}</td><td>{@code dsched_job_last_success_timestamp_seconds}</td><td>job</td></tr>
 *   <tr><td>{@code dsched.job.period}</td><td>{@code dsched_job_period_seconds}</td><td>job</td></tr>
 *   <tr><td>{@code dsched.dead.letters.backlog}</td><td>{@code dsched_dead_letters_backlog}</td><td></td></tr>
 *   <tr><td>{@code dsched.cluster.nodes}</td><td>{@code dsched_cluster_nodes}</td><td></td></tr>
 *   <tr><td>{@code dsched.cluster.nodes.expected}</td><td>{@code dsched_cluster_nodes_expected}</td><td></td></tr>
 *   <tr><td>{@code dsched.one.off.pending}</td><td>{@code dsched_one_off_pending}</td><td></td></tr>
 * </table>
 */
public final class DschedMetrics implements ExecutionListener, MeterBinder, SmartInitializingSingleton {

    private final ClusterGauges cluster;

    private final Supplier<Collection<String>> declaredJobs;

    private final Integer expectedNodes;

    private final JobGauges jobs;

    private final Map<String, Boolean> jobsSeen = new ConcurrentHashMap<>();

    private volatile MeterRegistry registry;

    /**
     * Creates the meters' source.
     * @param cluster the gauges read from the database
     * @param schedules the schedule of a job, if it has one
     * @param lastSuccessInStore when a job last succeeded, as the execution history says
     * @param declaredJobs the scheduled jobs of the application, whose series exist from the start
     * @param expectedNodes how many nodes the cluster should have, or {@code null}
     */
    public DschedMetrics(
            ClusterGauges cluster,
            Function<String, Optional<Schedule>> schedules,
            Function<String, Optional<Instant>> lastSuccessInStore,
            Supplier<Collection<String>> declaredJobs,
            Integer expectedNodes) {
        this.cluster = cluster;
        this.jobs = new JobGauges(schedules, lastSuccessInStore);
        this.declaredJobs = declaredJobs;
        this.expectedNodes = expectedNodes;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Gauge.builder("dsched.cluster.nodes", this.cluster, ClusterGauges::liveNodes)
                .description("Live nodes of the cluster")
                .register(registry);
        Gauge.builder("dsched.dead.letters.backlog", this.cluster, ClusterGauges::openDeadLetters)
                .description("Open dead letters of the cluster")
                .register(registry);
        Gauge.builder("dsched.one.off.pending", this.cluster, ClusterGauges::pendingOneOffs)
                .description("One-off jobs of the cluster waiting for their first attempt")
                .register(registry);
        if (this.expectedNodes != null) {
            Gauge.builder("dsched.cluster.nodes.expected", this.expectedNodes, Integer::doubleValue)
                    .description("Nodes the cluster should have (dsched.metrics.expected-nodes)")
                    .register(registry);
        }
        this.registry = registry;
        seeDeclaredJobs();
    }

    @Override
    public void afterSingletonsInstantiated() {
        seeDeclaredJobs();
    }

    private void seeDeclaredJobs() {
        MeterRegistry registry = this.registry;
        if (registry != null) {
            for (String job : this.declaredJobs.get()) {
                see(registry, job);
            }
        }
    }

    @Override
    public void started(ExecutionRecord attempt, Instant startedAt) {
        MeterRegistry registry = this.registry;
        if (registry == null) {
            return;
        }
        String job = attempt.jobName();
        see(registry, job);
        Instant due = (attempt.dueAt() != null) ? attempt.dueAt() : attempt.scheduledAt();
        Duration lag = Duration.between(due, startedAt);
        AttemptMeters.fireLag(registry, job).record(lag.isNegative() ? Duration.ZERO : lag);
        if (attempt.origin() == ExecutionOrigin.RECOVERY) {
            AttemptMeters.counter(registry, AttemptMeters.RECOVERIES, job).increment();
        }
    }

    @Override
    public void finished(ExecutionRecord attempt, Outcome outcome, Duration duration, Throwable failure) {
        MeterRegistry registry = this.registry;
        if (registry == null) {
            return;
        }
        String job = attempt.jobName();
        see(registry, job);
        String tag =
                switch (outcome) {
                    case SUCCEEDED -> "succeeded";
                    case DEAD_LETTERED -> "dead_lettered";
                    case LOST -> "lost";
                    case CANCELLED -> "cancelled";
                    default -> (failure instanceof JobTimeoutException) ? "timed_out" : "failed";
                };
        AttemptMeters.execution(registry, job, tag).record(duration);
        if (outcome == Outcome.SUCCEEDED) {
            this.jobs.succeeded(job, attempt.startedAt().plus(duration));
        } else if (outcome == Outcome.RETRY_SCHEDULED) {
            AttemptMeters.counter(registry, AttemptMeters.RETRIES, job).increment();
        } else if (outcome == Outcome.DEAD_LETTERED) {
            AttemptMeters.counter(registry, AttemptMeters.DEAD_LETTERS, job).increment();
        }
    }

    @Override
    public void skipped(String jobName, SkipReason reason) {
        MeterRegistry registry = this.registry;
        if (registry == null) {
            return;
        }
        see(registry, jobName);
        AttemptMeters.skipped(registry, jobName, reason).increment();
    }

    /** Registers a job's series at zero the first time the job is seen, so that rates start from it. */
    private void see(MeterRegistry registry, String job) {
        if (this.jobsSeen.putIfAbsent(job, Boolean.TRUE) != null) {
            return;
        }
        this.jobs.readStored(job);
        AttemptMeters.registerAtZero(registry, job);
        this.jobs.register(registry, job);
    }
}
