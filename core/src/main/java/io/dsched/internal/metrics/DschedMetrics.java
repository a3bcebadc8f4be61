package io.dsched.internal.metrics;

import io.dsched.definition.Schedule;
import io.dsched.execution.ExecutionListener;
import io.dsched.execution.ExecutionOrigin;
import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.JobTimeoutException;
import io.dsched.execution.Outcome;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.scheduling.support.CronExpression;

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

    /** Bucket bounds of the histograms, from a few milliseconds to an hour. */
    static final Duration[] BUCKETS = {
        Duration.ofMillis(5),
        Duration.ofMillis(25),
        Duration.ofMillis(100),
        Duration.ofMillis(250),
        Duration.ofMillis(500),
        Duration.ofSeconds(1),
        Duration.ofSeconds(2),
        Duration.ofSeconds(5),
        Duration.ofSeconds(10),
        Duration.ofSeconds(30),
        Duration.ofMinutes(1),
        Duration.ofMinutes(5),
        Duration.ofMinutes(15),
        Duration.ofHours(1)
    };

    private static final Logger logger = LoggerFactory.getLogger(DschedMetrics.class);

    private static final String[] OUTCOMES = {"succeeded", "failed", "timed_out", "dead_lettered", "lost", "cancelled"};

    private final ClusterGauges cluster;

    private final Function<String, Optional<Schedule>> schedules;

    private final Function<String, Optional<Instant>> lastSuccessInStore;

    private final Supplier<Collection<String>> declaredJobs;

    private final Integer expectedNodes;

    private final Map<String, Instant> lastSuccess = new ConcurrentHashMap<>();

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
        this.schedules = schedules;
        this.lastSuccessInStore = lastSuccessInStore;
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
        fireLag(registry, job).record(lag.isNegative() ? Duration.ZERO : lag);
        if (attempt.origin() == ExecutionOrigin.RECOVERY) {
            counter(registry, "dsched.recoveries", job).increment();
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
        execution(registry, job, tag).record(duration);
        if (outcome == Outcome.SUCCEEDED) {
            this.lastSuccess.merge(job, attempt.startedAt().plus(duration), DschedMetrics::later);
        } else if (outcome == Outcome.RETRY_SCHEDULED) {
            counter(registry, "dsched.retries", job).increment();
        } else if (outcome == Outcome.DEAD_LETTERED) {
            counter(registry, "dsched.dead.letters", job).increment();
        }
    }

    @Override
    public void skipped(String jobName, SkipReason reason) {
        MeterRegistry registry = this.registry;
        if (registry == null) {
            return;
        }
        see(registry, jobName);
        skippedCounter(registry, jobName, reason).increment();
    }

    /** Registers a job's series at zero the first time the job is seen, so that rates start from it. */
    private void see(MeterRegistry registry, String job) {
        if (this.jobsSeen.putIfAbsent(job, Boolean.TRUE) != null) {
            return;
        }
        try {
            this.lastSuccessInStore.apply(job).ifPresent((at) -> this.lastSuccess.merge(job, at, DschedMetrics::later));
        } catch (RuntimeException ex) {
            // the gauge starts empty and fills with this node's next success
            logger.debug("Could not read the last success of '{}': {}", job, ex.getMessage());
        }
        for (String outcome : OUTCOMES) {
            execution(registry, job, outcome);
        }
        fireLag(registry, job);
        counter(registry, "dsched.retries", job);
        counter(registry, "dsched.dead.letters", job);
        counter(registry, "dsched.recoveries", job);
        for (SkipReason reason : SkipReason.values()) {
            skippedCounter(registry, job, reason);
        }
        TimeGauge.builder(
                        "dsched.job.last.success.timestamp",
                        this.lastSuccess,
                        TimeUnit.SECONDS,
                        (times) -> Optional.ofNullable(times.get(job))
                                .map((at) -> at.toEpochMilli() / 1000.0)
                                .orElse(Double.NaN))
                .description("When the job last succeeded, as this node knows it")
                .tag("job", job)
                .register(registry);
        if (this.schedules.apply(job).isPresent()) {
            TimeGauge.builder("dsched.job.period", this, TimeUnit.SECONDS, (metrics) -> metrics.periodSeconds(job))
                    .description("Time between two fires of the job's schedule")
                    .tag("job", job)
                    .register(registry);
        }
    }

    private double periodSeconds(String job) {
        return this.schedules
                .apply(job)
                .map(DschedMetrics::period)
                .filter((period) -> !period.isZero())
                .map((period) -> period.toMillis() / 1000.0)
                .orElse(Double.NaN);
    }

    /**
     * The time between two fires of a schedule: for a cron, between its next two fires.
     * @param schedule the schedule
     * @return the period, zero for a cron that fires no more
     */
    static Duration period(Schedule schedule) {
        if (schedule instanceof Schedule.FixedRate rate) {
            return rate.interval();
        }
        if (schedule instanceof Schedule.FixedDelay delay) {
            return delay.delay();
        }
        Schedule.Cron cron = (Schedule.Cron) schedule;
        CronExpression expression = CronExpression.parse(cron.expression());
        ZonedDateTime next = expression.next(ZonedDateTime.now(cron.effectiveZone()));
        ZonedDateTime after = (next != null) ? expression.next(next) : null;
        return (after != null) ? Duration.between(next, after) : Duration.ZERO;
    }

    private static Timer execution(MeterRegistry registry, String job, String outcome) {
        return Timer.builder("dsched.execution")
                .description("Attempts run on this node, by outcome, and how long they ran")
                .tag("job", job)
                .tag("outcome", outcome)
                .serviceLevelObjectives(BUCKETS)
                .register(registry);
    }

    private static Timer fireLag(MeterRegistry registry, String job) {
        return Timer.builder("dsched.fire.lag")
                .description("Start of an attempt on this node minus the time it was due")
                .tag("job", job)
                .serviceLevelObjectives(BUCKETS)
                .register(registry);
    }

    private static Counter counter(MeterRegistry registry, String name, String job) {
        return Counter.builder(name).tag("job", job).register(registry);
    }

    private static Counter skippedCounter(MeterRegistry registry, String job, SkipReason reason) {
        return Counter.builder("dsched.skipped")
                .description("Fires and attempts not run on this node, by reason")
                .tag("job", job)
                .tag("reason", reason.name().toLowerCase(Locale.ROOT))
                .register(registry);
    }

    private static Instant later(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }
}
