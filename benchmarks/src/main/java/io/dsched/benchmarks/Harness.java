package io.dsched.benchmarks;

import com.zaxxer.hikari.HikariDataSource;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * What every workload of a benchmark run shares: the database, the options, the report being
 * written, the measurements that could not run, and the machinery of a run (a fresh database,
 * worker JVMs started and stopped, waiting for progress).
 */
final class Harness implements AutoCloseable {

    private final BenchDatabase db;

    private final Map<String, String> options;

    private final int threads;

    private final Path logs;

    private final StringBuilder report = new StringBuilder();

    Harness(BenchDatabase db, Map<String, String> options) {
        this.db = db;
        this.options = options;
        this.threads = intOption("threads", 10);
        this.logs = Path.of(option("logs", "target/bench-logs"));
        // where Redis is, for the contestants that use it, in this JVM and the workers'
        if (options.containsKey("redis")) {
            System.setProperty(WorkerProcess.REDIS, options.get("redis"));
        }
    }

    BenchDatabase db() {
        return this.db;
    }

    Map<String, String> options() {
        return this.options;
    }

    /** Worker threads of each node (W3 has its own). */
    int threads() {
        return this.threads;
    }

    /** The report written so far, in Markdown. */
    String text() {
        return this.report.toString();
    }

    @Override
    public void close() {
        if (this.options.containsKey("redis")) {
            System.clearProperty(WorkerProcess.REDIS);
        }
        if (this.pool != null) {
            this.pool.close();
        }
    }

    private final Map<String, String> failures = new LinkedHashMap<>();

    /**
     * How long before a measured window the coordinator runs {@code ANALYZE} again: the tables a
     * run writes (history, fires, locks) are empty or nearly so when its nodes come up, and this
     * server's planner would otherwise keep plans made for tiny tables (with autovacuum off, for
     * the whole run).
     */
    static final long WINDOW_STATISTICS_MILLIS = 3000;

    private static final String WAITS_NOTE = "Database sessions busy with: the two largest shares of the samples"
            + " (every 50 ms, PostgreSQL's `pg_stat_activity`) of busy database sessions during the first run:"
            + " waiting for Quartz's cluster-wide lock row, for other row locks, for the write-ahead log (commits),"
            + " for the application (a session inside a transaction waiting for its next statement), or running (CPU).";

    static void close(WaitSampler sampler) {
        if (sampler != null) {
            sampler.close();
        }
    }

    static String summary(WaitSampler sampler) {
        return (sampler != null) ? sampler.summary() : "n/a";
    }

    /** Runs one measurement; a contestant that cannot run it is left out of the table and noted. */
    <R> void attempt(String workload, String name, int rep, Map<String, List<R>> results, Callable<R> measurement) {
        String key = workload + " " + name;
        if (this.failures.containsKey(key)) {
            return;
        }
        try {
            R result = measurement.call();
            progress(key + " run " + (rep + 1) + ": " + result);
            results.computeIfAbsent(name, (ignored) -> new ArrayList<>()).add(result);
        } catch (Exception ex) {
            Throwable cause = ex;
            while (cause.getCause() != null) {
                cause = cause.getCause();
            }
            String reason = cause.getClass().getSimpleName() + ": " + cause.getMessage();
            progress(key + " could not run: " + reason);
            this.failures.put(key, reason);
        }
    }

    /**
     * Lists every run's values of the main columns, in the order of the runs, so that the spread
     * behind a median can be checked.
     */
    <R> void perRun(Map<String, List<R>> results, List<Map.Entry<String, Function<R, Double>>> columns) {
        line("Every run, in the order they ran:");
        line("");
        StringBuilder header = new StringBuilder("| contestant |");
        StringBuilder rule = new StringBuilder("| --- |");
        for (Map.Entry<String, Function<R, Double>> column : columns) {
            header.append(' ').append(column.getKey()).append(" |");
            rule.append(" --- |");
        }
        line(header.toString());
        line(rule.toString());
        results.forEach((name, runs) -> {
            StringBuilder row = new StringBuilder("| " + name + " |");
            for (Map.Entry<String, Function<R, Double>> column : columns) {
                row.append(' ')
                        .append(runs.stream()
                                .map(column.getValue())
                                .map(Stats::number)
                                .collect(Collectors.joining("; ")))
                        .append(" |");
            }
            line(row.toString());
        });
        line("");
    }

    /** Ends the table of a workload with what its profile column means and what could not run. */
    void endTable(String workload) {
        line(WAITS_NOTE);
        line("");
        notes(workload);
    }

    void notes(String workload) {
        this.failures.forEach((key, reason) -> {
            if (key.startsWith(workload + " ")) {
                line("- " + key.substring(workload.length() + 1) + " could not run: " + reason);
            }
        });
    }

    /**
     * Starts every run from the same database: no contestant's tables and no {@code bench_run},
     * vacuumed and checkpointed (PostgreSQL) or purged (MariaDB); then creates the run's tables.
     */
    void resetAll(Contestant contestant) throws Exception {
        BenchRun.drop(this.db);
        for (Contestant any : Contestants.oneOfEachKind()) {
            any.drop(this.db);
        }
        progress("  fresh database: " + this.db.settle(Duration.ofSeconds(120)));
        BenchRun.reset(this.db);
        contestant.reset(this.db);
    }

    /**
     * The order of the runs of one repetition: repetition {@code rep} starts with element {@code
     * rep mod n}, so that no contestant always goes first (with as many repetitions as contestants,
     * each goes first once).
     * @param items the contestants, in their table order
     * @param rep the repetition, from 0
     * @return the same elements, rotated
     */
    static <T> List<T> rotated(List<T> items, int rep) {
        if (items.isEmpty()) {
            return items;
        }
        int first = Math.floorMod(rep, items.size());
        List<T> order = new ArrayList<>(items.subList(first, items.size()));
        order.addAll(items.subList(0, first));
        return order;
    }

    List<WorkerProcess> startWorkers(
            Contestant contestant, Workload workload, int nodes, int threads, RecurringPlan plan, long holdMillis)
            throws Exception {
        List<WorkerProcess> workers = new ArrayList<>();
        try {
            for (int i = 1; i <= nodes; i++) {
                workers.add(WorkerProcess.start(
                        this.db,
                        contestant.name(),
                        new NodeSpec("node-" + i, threads, workload, plan),
                        holdMillis,
                        this.logs));
            }
            for (WorkerProcess worker : workers) {
                worker.await("WARM", Duration.ofSeconds(60));
            }
            contestant.nodesStarting(this.db);
            workers.forEach((worker) -> worker.command("GO"));
            for (WorkerProcess worker : workers) {
                worker.await("READY", Duration.ofSeconds(120));
            }
            // the nodes have written their jobs and triggers: plan with the tables' real sizes
            this.db.analyze();
            return workers;
        } catch (Exception ex) {
            stopAll(workers);
            throw ex;
        }
    }

    static void stopAll(List<WorkerProcess> workers) {
        workers.parallelStream().forEach(WorkerProcess::close);
        long cpu = workers.stream()
                .mapToLong(WorkerProcess::cpuMillis)
                .filter((millis) -> millis >= 0)
                .sum();
        progress("  worker JVMs used " + cpu + " ms of CPU");
    }

    long distinctStarted() {
        return jdbc().queryForObject("SELECT COUNT(DISTINCT run_key) FROM bench_run WHERE kind = 'S'", Long.class);
    }

    /** Waits until a count reaches a target, failing if it stops moving for too long. */
    static void awaitProgress(java.util.function.LongSupplier count, long target, Duration stall, Duration atMost) {
        long last = -1;
        long lastChange = System.nanoTime();
        long deadline = System.nanoTime() + atMost.toNanos();
        while (true) {
            long now = count.getAsLong();
            if (now >= target) {
                return;
            }
            if (System.nanoTime() > deadline) {
                progress("  stopped after " + atMost.toSeconds() + " s at " + now + " of " + target
                        + "; measuring what ran");
                return;
            }
            if (now != last) {
                last = now;
                lastChange = System.nanoTime();
            } else if (System.nanoTime() - lastChange > stall.toNanos()) {
                progress("  stalled at " + now + " of " + target + "; measuring what ran");
                return;
            }
            pause(100);
        }
    }

    private JdbcTemplate jdbc;

    private HikariDataSource pool;

    JdbcTemplate jdbc() {
        if (this.jdbc == null) {
            this.pool = this.db.pool("bench-coordinator", 3);
            this.jdbc = new JdbcTemplate(this.pool);
        }
        return this.jdbc;
    }

    List<String> contestants(Workload workload) {
        String wanted = option("contestants", "all");
        List<String> names = wanted.equals("all") ? Contestants.names() : List.of(wanted.split(","));
        return names.stream()
                .map(String::trim)
                .filter((name) -> Contestants.byName(name).supports(workload))
                .toList();
    }

    int reps() {
        return intOption("reps", 5);
    }

    /** Repetitions of one workload: {@code --w2-reps} and so on, else {@code --reps}. */
    int reps(String workload) {
        return intOption(workload.toLowerCase(Locale.ROOT) + "-reps", reps());
    }

    String option(String name, String fallback) {
        return this.options.getOrDefault(name, fallback);
    }

    int intOption(String name, int fallback) {
        return Integer.parseInt(option(name, Integer.toString(fallback)));
    }

    void line(String text) {
        this.report.append(text).append('\n');
    }

    static void progress(String text) {
        System.out.println("[bench " + Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS) + "] " + text);
    }

    static <T> List<Double> rates(List<T> runs, Function<T, Double> value) {
        return (runs != null) ? runs.stream().map(value).toList() : List.of();
    }

    static <T> long sum(List<T> runs, java.util.function.ToLongFunction<T> value) {
        return runs.stream().mapToLong(value).sum();
    }

    static String ratio(double dsched, double other) {
        if (Double.isNaN(dsched) || Double.isNaN(other) || other == 0) {
            return "n/a";
        }
        return String.format(Locale.ROOT, "%.2f×", dsched / other);
    }

    static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted", ex);
        }
    }
}
