package io.dsched.internal.metrics;

import io.dsched.execution.ExecutionListener.SkipReason;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.Locale;

/** The meters of what attempts of a job did on this node: timers of runs and lag, counters of events. */
final class AttemptMeters {

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

    static final String RETRIES = "dsched.retries";

    static final String DEAD_LETTERS = "dsched.dead.letters";

    static final String RECOVERIES = "dsched.recoveries";

    private static final String[] OUTCOMES = {"succeeded", "failed", "timed_out", "dead_lettered", "lost", "cancelled"};

    private AttemptMeters() {}

    /** Registers every series of a job at zero, so that rates start from it. */
    static void registerAtZero(MeterRegistry registry, String job) {
        for (String outcome : OUTCOMES) {
            execution(registry, job, outcome);
        }
        fireLag(registry, job);
        counter(registry, RETRIES, job);
        counter(registry, DEAD_LETTERS, job);
        counter(registry, RECOVERIES, job);
        for (SkipReason reason : SkipReason.values()) {
            skipped(registry, job, reason);
        }
    }

    static Timer execution(MeterRegistry registry, String job, String outcome) {
        return Timer.builder("dsched.execution")
                .description("Attempts run on this node, by outcome, and how long they ran")
                .tag("job", job)
                .tag("outcome", outcome)
                .serviceLevelObjectives(BUCKETS)
                .register(registry);
    }

    static Timer fireLag(MeterRegistry registry, String job) {
        return Timer.builder("dsched.fire.lag")
                .description("Start of an attempt on this node minus the time it was due")
                .tag("job", job)
                .serviceLevelObjectives(BUCKETS)
                .register(registry);
    }

    static Counter counter(MeterRegistry registry, String name, String job) {
        return Counter.builder(name).tag("job", job).register(registry);
    }

    static Counter skipped(MeterRegistry registry, String job, SkipReason reason) {
        return Counter.builder("dsched.skipped")
                .description("Fires and attempts not run on this node, by reason")
                .tag("job", job)
                .tag("reason", reason.name().toLowerCase(Locale.ROOT))
                .register(registry);
    }
}
