package io.dsched.benchmarks;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Samples what the database sessions of a run are doing, every 50 ms, from PostgreSQL's {@code
 * pg_stat_activity}: a profile of the database side that tells what limits a contestant (a lock,
 * the write-ahead log, the CPU, or the application). Every busy session counts once per sample.
 */
final class WaitSampler implements AutoCloseable {

    private static final String QUERY = """
            SELECT state, wait_event_type, wait_event, query FROM pg_stat_activity
             WHERE datname = current_database() AND pid <> pg_backend_pid() AND state <> 'idle'
            """;

    private final JdbcTemplate jdbc;

    private final Map<String, Long> counts = new LinkedHashMap<>();

    private final AtomicBoolean running = new AtomicBoolean(true);

    private final Thread thread;

    private WaitSampler(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
        this.thread = new Thread(this::sample, "bench-wait-sampler");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /**
     * Starts sampling, on PostgreSQL only.
     * @param db the database
     * @param jdbc connections of the coordinator
     * @return the sampler, or {@code null} on other databases
     */
    static WaitSampler start(BenchDatabase db, JdbcTemplate jdbc) {
        return db.isPostgres() ? new WaitSampler(jdbc) : null;
    }

    private void sample() {
        while (this.running.get()) {
            try {
                List<Map<String, Object>> sessions = this.jdbc.queryForList(QUERY);
                synchronized (this.counts) {
                    sessions.stream()
                            .filter((session) -> !isCoordinator(String.valueOf(session.get("query"))))
                            .forEach((session) -> this.counts.merge(classify(session), 1L, Long::sum));
                }
            } catch (RuntimeException ex) {
                // the database is busy with the run; skip this sample
            }
            Harness.pause(50);
        }
    }

    /**
     * Whether a session is the coordinator's own, polling for progress: its counts of started
     * jobs, and of completed ones (marked {@code bench-coordinator}).
     */
    private static boolean isCoordinator(String query) {
        return query.contains("COUNT(DISTINCT run_key)") || query.contains("bench-coordinator");
    }

    static String classify(Map<String, Object> session) {
        String type = (String) session.get("wait_event_type");
        String event = (String) session.get("wait_event");
        String query = String.valueOf(session.get("query")).toUpperCase(Locale.ROOT);
        if ("Lock".equals(type) && query.contains("QRTZ_LOCKS")) {
            return "Quartz's lock row";
        }
        if ("Lock".equals(type)) {
            return "row locks";
        }
        if (event != null
                && (event.startsWith("WAL") || event.equals("XactCommit") || event.startsWith("DataFileSync"))) {
            return "write-ahead log";
        }
        if ("Client".equals(type)) {
            return "the application";
        }
        if (type == null) {
            return "CPU";
        }
        return type + ":" + event;
    }

    /** Stops sampling. */
    @Override
    public void close() {
        this.running.set(false);
        try {
            this.thread.join(2000);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Returns the two largest shares of the busy session samples.
     * @return such as {@code "Quartz's lock row 71%, write-ahead log 12%"}
     */
    String summary() {
        synchronized (this.counts) {
            long total =
                    this.counts.values().stream().mapToLong(Long::longValue).sum();
            if (total == 0) {
                return "n/a";
            }
            return this.counts.entrySet().stream()
                    .sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()))
                    .limit(2)
                    .map((entry) -> entry.getKey() + " " + Math.round(100.0 * entry.getValue() / total) + "%")
                    .collect(Collectors.joining(", "));
        }
    }
}
