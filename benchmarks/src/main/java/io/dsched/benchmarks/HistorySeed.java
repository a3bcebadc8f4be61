package io.dsched.benchmarks;

import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.Locale;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Fills {@code dsched_execution} with finished attempts, as a cluster that ran {@value #JOBS} jobs
 * in turn would have left them: evenly spread over the days before a given end, in the order they
 * ran (ids rising with time, as a live history's do), one in {@value #FAILED_EVERY} failed with its
 * error, on three nodes; and one in {@value #RARE_EVERY} of a job that runs seldom. One statement a million rows, from a series the database makes itself
 * ({@code generate_series} on PostgreSQL, the Sequence engine's {@code seq_1_to_n} on MariaDB),
 * then the table's statistics are brought up to date. The newest day first, so that W8 can time
 * the calls on a history of one day, whose last hour and day hold what the full history's hold,
 * before the days before it are added below it.
 */
final class HistorySeed {

    /** The jobs whose history it is, {@code w8-job-00} to {@code w8-job-49}. */
    static final int JOBS = 50;

    static final int FAILED_EVERY = 97;

    /**
     * A job that runs seldom, one row in {@value #RARE_EVERY} (about every 20 minutes at 8 rows a
     * second): its list is a few rows among millions, which a read in id order must not scan for.
     */
    static final String RARE = "w8-rare";

    static final int RARE_EVERY = 10_000;

    private static final int CHUNK = 1_000_000;

    private static final String COLUMNS = "INSERT INTO dsched_execution (id, job_name, scheduled_at, attempt,"
            + " idempotency_key, status, node_id, started_at, finished_at, error_class, error_message,"
            + " status_reason, origin, due_at, payload) ";

    private final BenchDatabase db;

    private final JdbcTemplate jdbc;

    private final long rows;

    private final int days;

    private final Instant end;

    /** The highest id before the history: row g of the series gets id base + g. */
    private final long base;

    /**
     * Prepares a history of {@code rows} rows over the {@code days} days before {@code end}.
     * @param db the database
     * @param jdbc its connections
     * @param rows how many rows in all
     * @param days over how many days
     * @param end when the last one started
     */
    HistorySeed(BenchDatabase db, JdbcTemplate jdbc, long rows, int days, Instant end) {
        this.db = db;
        this.jdbc = jdbc;
        this.rows = rows;
        this.days = days;
        this.end = end;
        Long max = jdbc.queryForObject("SELECT MAX(id) FROM dsched_execution", Long.class);
        this.base = (max != null) ? max : 0;
    }

    /**
     * Returns the name of one of the seeded jobs.
     * @param job 0 to {@value #JOBS} - 1
     * @return its name
     */
    static String jobName(int job) {
        return String.format(Locale.ROOT, "w8-job-%02d", job);
    }

    /**
     * Inserts the newest day of the history, with ids above every row's so far, so that the rows
     * inserted after it come after it, as they would in a live history.
     */
    void newestDay() {
        insert(this.rows - this.rows / this.days + 1, this.rows);
        if (this.db.isPostgres()) {
            // the ids were given: the identity's sequence goes on after them (MariaDB's does by itself)
            this.jdbc.queryForObject(
                    "SELECT setval(pg_get_serial_sequence('dsched_execution', 'id'), ?)",
                    Long.class,
                    this.base + this.rows);
        }
        analyze();
    }

    /** Inserts the days before the newest, with the ids below its. */
    void olderDays() {
        insert(1, this.rows - this.rows / this.days);
        analyze();
    }

    /**
     * Inserts the rows of a part of the series: row {@code g} has id {@code base + g} and started
     * {@code (rows - g) × step} before the end.
     */
    private void insert(long from, long to) {
        long stepMicros = Duration.ofDays(this.days).toNanos() / 1000 / this.rows;
        for (long first = from; first <= to; first += CHUNK) {
            long last = Math.min(to, first + CHUNK - 1);
            if (this.db.isPostgres()) {
                this.jdbc.update(
                        COLUMNS + select(true)
                                + " FROM (SELECT g, ?::timestamptz - (? - g) * (? * interval '1 microsecond') AS t"
                                + " FROM generate_series(?::bigint, ?::bigint) g) s",
                        this.base,
                        OffsetDateTime.ofInstant(this.end, ZoneOffset.UTC),
                        this.rows,
                        stepMicros,
                        first,
                        last);
            } else {
                this.jdbc.update(
                        COLUMNS + select(false)
                                + " FROM (SELECT seq AS g, TIMESTAMPADD(MICROSECOND, -(? - seq) * ?, ?) AS t"
                                + " FROM seq_" + first + "_to_" + last + ") s",
                        this.base,
                        this.rows,
                        stepMicros,
                        LocalDateTime.ofInstant(this.end, ZoneOffset.UTC));
            }
            Harness.progress("  W8 history: rows " + first + " to " + last + " of " + this.rows);
        }
    }

    private void analyze() {
        if (this.db.isPostgres()) {
            this.jdbc.execute("VACUUM ANALYZE dsched_execution");
        } else {
            this.jdbc.execute("ANALYZE TABLE dsched_execution");
        }
    }

    /**
     * The select list of the insert, over a series {@code g} and start times {@code t}, in the
     * database's own way of joining text and adding time.
     */
    private static String select(boolean postgres) {
        String job = "CASE WHEN g % " + RARE_EVERY + " = 0 THEN '" + RARE + "' ELSE "
                + (postgres
                        ? "'w8-job-' || lpad((g % " + JOBS + ")::text, 2, '0')"
                        : "CONCAT('w8-job-', LPAD(g % " + JOBS + ", 2, '0'))")
                + " END";
        String key = postgres ? job + " || '@seed' || g" : "CONCAT(" + job + ", '@seed', g)";
        String node = postgres ? "'w8-node-' || (g % 3)" : "CONCAT('w8-node-', g % 3)";
        String finished = postgres ? "t + interval '80 milliseconds'" : "TIMESTAMPADD(MICROSECOND, 80000, t)";
        String failed = "g % " + FAILED_EVERY + " = 0";
        return "SELECT ? + g, " + job + ", t, 1, " + key + ", CASE WHEN " + failed
                + " THEN 'FAILED' ELSE 'SUCCEEDED' END, " + node + ", t, " + finished
                + ", CASE WHEN " + failed + " THEN 'java.lang.IllegalStateException' END"
                + ", CASE WHEN " + failed + " THEN 'upstream answered 503' END"
                + ", NULL, 'SCHEDULE', NULL, NULL";
    }
}
