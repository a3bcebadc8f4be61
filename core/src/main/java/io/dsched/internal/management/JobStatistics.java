package io.dsched.internal.management;

import io.dsched.execution.ExecutionStatus;
import io.dsched.internal.store.ClusterTables;
import io.dsched.internal.store.DatabasePlatform;
import io.dsched.internal.store.SqlDialect;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Counts the attempts of each job that started within a window, and the 95th percentile of their
 * durations, from {@code dsched_execution}.
 */
public class JobStatistics {

    /** How many of a job's latest finished attempts the percentile is taken over, at most. */
    static final int PERCENTILE_SAMPLE = 1_000;

    /** The states in which an attempt has ended with an outcome of its own. */
    static final Set<ExecutionStatus> FINISHED_STATES = EnumSet.of(
            ExecutionStatus.SUCCEEDED,
            ExecutionStatus.FAILED,
            ExecutionStatus.TIMED_OUT,
            ExecutionStatus.DEAD_LETTERED);

    private static final String FINISHED = "'SUCCEEDED', 'FAILED', 'TIMED_OUT', 'DEAD_LETTERED'";

    /**
     * Leaves out the attempts that never started: a waiting attempt's {@code started_at} holds
     * the time it was scheduled, and a cancelled one was never run.
     */
    private static final String NOT_WAITING = " AND status NOT IN ('SCHEDULED', 'RETRY_SCHEDULED', 'CANCELLED')";

    private final JdbcTemplate jdbc;

    private final ClusterTables tables;

    private final SqlDialect dialect;

    /**
     * Creates the statistics.
     * @param dataSource dsched's DataSource
     * @param tables the cluster's tables
     * @param platform its database
     */
    public JobStatistics(DataSource dataSource, DatabasePlatform platform, ClusterTables tables) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.tables = tables;
        this.dialect = platform.dialect();
    }

    /**
     * Counts attempts by job and state among those that started since a time; waiting and
     * cancelled ones, which did not start, are left out.
     * @param since the start of the window
     * @return the counts of each job that had attempts
     */
    public Map<String, Map<ExecutionStatus, Long>> counts(Instant since) {
        Map<String, Map<ExecutionStatus, Long>> counts = new HashMap<>();
        this.jdbc.query(
                this.tables.sql("SELECT job_name, status, COUNT(*) AS n FROM dsched_execution WHERE started_at >= ?"
                        + NOT_WAITING
                        + " GROUP BY job_name, status"),
                (rs) -> {
                    counts.computeIfAbsent(rs.getString("job_name"), (job) -> new EnumMap<>(ExecutionStatus.class))
                            .put(ExecutionStatus.valueOf(rs.getString("status")), rs.getLong("n"));
                },
                this.dialect.bindable(since));
        return counts;
    }

    /**
     * Counts attempts, newest or not, of a job and in a state, but no further than a limit: so
     * that a page of a history of millions of rows costs what the page and the limit cost, not a
     * count of the whole table (W8 in the benchmarks).
     * @param job only this job's, or {@code null}
     * @param status only those in this state, or {@code null}
     * @param limit how far to count at most
     * @return how many, at most {@code limit}
     */
    public long countUpTo(String job, ExecutionStatus status, long limit) {
        List<Object> arguments = new ArrayList<>();
        StringBuilder where = new StringBuilder();
        if (job != null) {
            where.append(" WHERE job_name = ?");
            arguments.add(job);
        }
        if (status != null) {
            where.append(where.isEmpty() ? " WHERE" : " AND").append(" status = ?");
            arguments.add(status.name());
        }
        arguments.add(limit);
        Long counted = this.jdbc.queryForObject(
                this.tables.sql(
                        "SELECT COUNT(*) FROM (SELECT 1 AS one FROM dsched_execution" + where + " LIMIT ?) counted"),
                Long.class,
                arguments.toArray());
        return (counted != null) ? counted : 0;
    }

    /**
     * Counts each job's open dead letters, those waiting for an operator.
     * @return the counts of the jobs that have any
     */
    public Map<String, Long> openDeadLetters() {
        Map<String, Long> counts = new HashMap<>();
        this.jdbc.query(
                this.tables.sql("SELECT job_name, COUNT(*) AS n FROM dsched_dead_letter WHERE status = 'OPEN'"
                        + " GROUP BY job_name"),
                (rs) -> {
                    counts.put(rs.getString("job_name"), rs.getLong("n"));
                });
        return counts;
    }

    /**
     * Reads the latest attempts that started since a time, newest first.
     * @param since the start of the window
     * @param limit how many at most
     * @return the attempts
     */
    public List<StartedAttempt> startedSince(Instant since, int limit) {
        return this.jdbc.query(
                this.tables.sql("SELECT status, origin, attempt, scheduled_at, started_at FROM dsched_execution"
                        + " WHERE started_at >= ?" + NOT_WAITING + " ORDER BY started_at DESC LIMIT " + limit),
                (rs, row) -> new StartedAttempt(
                        ExecutionStatus.valueOf(rs.getString("status")),
                        rs.getString("origin"),
                        rs.getInt("attempt"),
                        this.dialect.readInstant(rs, "scheduled_at"),
                        this.dialect.readInstant(rs, "started_at")),
                this.dialect.bindable(since));
    }

    /**
     * Returns the 95th percentile of the durations of a job's latest finished attempts that
     * started since a time, of fires scheduled since then: so that the read is a range of the
     * index on the job and its fires' times, however long the job's history (W8 in the
     * benchmarks). The attempts of a fire scheduled before the window, retries that started in it,
     * are left out.
     * @param job the job
     * @param since the start of the window
     * @return the percentile, or {@code null} when no attempt finished
     */
    public Duration p95(String job, Instant since) {
        List<Long> millis = new ArrayList<>();
        this.jdbc.query(
                this.tables.sql(
                        "SELECT started_at, finished_at FROM dsched_execution WHERE job_name = ? AND scheduled_at >= ?"
                                + " AND started_at >= ? AND finished_at IS NOT NULL AND status IN (" + FINISHED + ")"
                                + " ORDER BY scheduled_at DESC LIMIT " + PERCENTILE_SAMPLE),
                (rs) -> {
                    Instant started = this.dialect.readInstant(rs, "started_at");
                    Instant finished = this.dialect.readInstant(rs, "finished_at");
                    millis.add(Math.max(0, Duration.between(started, finished).toMillis()));
                },
                job,
                this.dialect.bindable(since),
                this.dialect.bindable(since));
        if (millis.isEmpty()) {
            return null;
        }
        millis.sort(null);
        int rank = (int) Math.ceil(0.95 * millis.size()) - 1;
        return Duration.ofMillis(millis.get(Math.max(0, rank)));
    }
}
