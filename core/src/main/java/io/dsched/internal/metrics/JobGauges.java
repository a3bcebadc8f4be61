package io.dsched.internal.metrics;

import io.dsched.definition.Schedule;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.TimeGauge;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.scheduling.support.CronExpression;

/** The gauges of a job's schedule: when it last succeeded, and the time between two of its fires. */
final class JobGauges {

    private static final Logger logger = LoggerFactory.getLogger(DschedMetrics.class);

    private final Function<String, Optional<Schedule>> schedules;

    private final Function<String, Optional<Instant>> lastSuccessInStore;

    private final Map<String, Instant> lastSuccess = new ConcurrentHashMap<>();

    JobGauges(Function<String, Optional<Schedule>> schedules, Function<String, Optional<Instant>> lastSuccessInStore) {
        this.schedules = schedules;
        this.lastSuccessInStore = lastSuccessInStore;
    }

    /** Starts the last success of a job from the execution history, when it can be read. */
    void readStored(String job) {
        try {
            this.lastSuccessInStore.apply(job).ifPresent((at) -> succeeded(job, at));
        } catch (RuntimeException ex) {
            // the gauge starts empty and fills with this node's next success
            logger.debug("Could not read the last success of '{}': {}", job, ex.getMessage());
        }
    }

    void succeeded(String job, Instant at) {
        this.lastSuccess.merge(job, at, JobGauges::later);
    }

    void register(MeterRegistry registry, String job) {
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
            TimeGauge.builder("dsched.job.period", this, TimeUnit.SECONDS, (gauges) -> gauges.periodSeconds(job))
                    .description("Time between two fires of the job's schedule")
                    .tag("job", job)
                    .register(registry);
        }
    }

    private double periodSeconds(String job) {
        return this.schedules
                .apply(job)
                .map(JobGauges::period)
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

    private static Instant later(Instant a, Instant b) {
        return a.isAfter(b) ? a : b;
    }
}
