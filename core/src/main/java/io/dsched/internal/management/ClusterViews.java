package io.dsched.internal.management;

import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.ExecutionStatus;
import io.dsched.internal.deadletter.DeadLetters;
import io.dsched.internal.management.views.Minute;
import io.dsched.internal.management.views.Overview;
import io.dsched.internal.management.views.Timeline;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.springframework.data.jdbc.core.JdbcAggregateOperations;
import org.springframework.data.relational.core.query.Criteria;
import org.springframework.data.relational.core.query.Query;

/** The cluster at a glance and minute by minute, as the management endpoint reads it. */
public class ClusterViews {

    /** How many attempts the timeline reads at most. */
    static final int TIMELINE_SAMPLE = 50_000;

    private final ManagedJobs jobs;

    private final NodeViews nodes;

    private final JobStatistics statistics;

    private final DeadLetters deadLetters;

    private final JdbcAggregateOperations aggregates;

    private final Clock clock;

    /**
     * Creates the views.
     * @param jobs the jobs management knows
     * @param nodes the nodes of the cluster
     * @param statistics the jobs' statistics
     * @param deadLetters the dead letters
     * @param aggregates Spring Data JDBC's operations on dsched's tables
     * @param clock the clock
     */
    public ClusterViews(
            ManagedJobs jobs,
            NodeViews nodes,
            JobStatistics statistics,
            DeadLetters deadLetters,
            JdbcAggregateOperations aggregates,
            Clock clock) {
        this.jobs = jobs;
        this.nodes = nodes;
        this.statistics = statistics;
        this.deadLetters = deadLetters;
        this.aggregates = aggregates;
        this.clock = clock;
    }

    /**
     * Returns the cluster at a glance.
     * @param window the window the counts cover
     * @return the overview
     */
    public Overview overview(Duration window) {
        Map<ExecutionStatus, Long> counts = new EnumMap<>(ExecutionStatus.class);
        this.statistics
                .counts(this.clock.instant().minus(window))
                .values()
                .forEach((byStatus) -> byStatus.forEach((status, n) -> counts.merge(status, n, Long::sum)));
        return new Overview(
                this.nodes.nodeId(),
                this.nodes.nodes(),
                count(ExecutionStatus.RUNNING),
                count(ExecutionStatus.SCHEDULED) + count(ExecutionStatus.RETRY_SCHEDULED),
                this.deadLetters.openCount(),
                window,
                counts,
                this.jobs.names().size(),
                this.nodes.groups());
    }

    /**
     * Returns the cluster's attempts of a recent window minute by minute: how many started, how
     * many of them succeeded, and how late scheduled fires started.
     * @param window the window, ending with the current minute
     * @return the timeline
     */
    public Timeline timeline(Duration window) {
        Instant to = this.clock.instant().truncatedTo(ChronoUnit.MINUTES).plus(Duration.ofMinutes(1));
        int count = (int) Math.max(1, window.toMinutes());
        Instant from = to.minus(Duration.ofMinutes(count));
        List<StartedAttempt> attempts = this.statistics.startedSince(from, TIMELINE_SAMPLE);
        List<List<StartedAttempt>> byMinute = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            byMinute.add(new ArrayList<>());
        }
        for (StartedAttempt attempt : attempts) {
            int index = (int) Duration.between(from, attempt.startedAt()).toMinutes();
            if (index >= 0 && index < count) {
                byMinute.get(index).add(attempt);
            }
        }
        List<Minute> minutes = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            minutes.add(minute(from.plus(Duration.ofMinutes(i)), byMinute.get(i)));
        }
        return new Timeline(from, to, minutes, this.deadLetters.openCount(), attempts.size() == TIMELINE_SAMPLE);
    }

    private static Minute minute(Instant at, List<StartedAttempt> attempts) {
        long succeeded = attempts.stream()
                .filter((a) -> a.status() == ExecutionStatus.SUCCEEDED)
                .count();
        long failed = attempts.stream()
                .filter((a) ->
                        JobStatistics.FINISHED_STATES.contains(a.status()) && a.status() != ExecutionStatus.SUCCEEDED)
                .count();
        List<Long> lags = attempts.stream()
                .filter((a) -> "SCHEDULE".equals(a.origin()) && a.attempt() == 1)
                .map((a) -> Math.max(
                        0, Duration.between(a.scheduledAt(), a.startedAt()).toMillis()))
                .sorted()
                .toList();
        return new Minute(
                at,
                attempts.size(),
                succeeded,
                failed,
                (succeeded + failed > 0) ? (double) succeeded / (succeeded + failed) : null,
                percentile(lags, 0.50),
                percentile(lags, 0.95));
    }

    private static Duration percentile(List<Long> sorted, double rank) {
        if (sorted.isEmpty()) {
            return null;
        }
        int index = (int) Math.ceil(rank * sorted.size()) - 1;
        return Duration.ofMillis(sorted.get(Math.max(0, index)));
    }

    private long count(ExecutionStatus status) {
        return this.aggregates.count(Query.query(Criteria.where("status").is(status.name())), ExecutionRecord.class);
    }
}
