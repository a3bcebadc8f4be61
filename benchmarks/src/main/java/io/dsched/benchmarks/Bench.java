package io.dsched.benchmarks;

import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
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
 * The coordinator: runs each workload for each contestant, several times, with every node in a
 * worker JVM of its own, and prints the tables. Options (all optional):
 *
 * <pre>
 * --db postgresql|mariadb   --url jdbc:... --user u --password p
 * --workloads W1,W2,W3,W4,SCALE   --contestants name,name|all   --reps 5   --threads 10
 * --w1-jobs 20000   --w2-jobs 500   --w2-seconds 60   --w2-warmup-seconds 20   --w3-fires 100   --w4-jobs 1000
 * --w4-seconds 30   --w4-warmup-seconds 40   --scale-nodes 1,2,4   --out FILE
 * </pre>
 */
public final class Bench {

    private final BenchDatabase db;

    private final Map<String, String> options;

    private final int threads;

    private final Path logs;

    private final StringBuilder report = new StringBuilder();

    private Bench(BenchDatabase db, Map<String, String> options) {
        this.db = db;
        this.options = options;
        this.threads = intOption("threads", 10);
        this.logs = Path.of(option("logs", "target/bench-logs"));
    }

    /**
     * Runs the benchmark.
     * @param args the options
     * @throws Exception if a run fails
     */
    public static void main(String[] args) throws Exception {
        Map<String, String> options = new LinkedHashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            options.put(args[i].replaceFirst("^--", ""), args[i + 1]);
        }
        String kind = options.getOrDefault("db", "postgresql");
        BenchDatabase db = new BenchDatabase(
                options.getOrDefault(
                        "url",
                        kind.equals("mariadb")
                                ? "jdbc:mariadb://localhost:3306/test"
                                : "jdbc:postgresql://localhost:5432/test"),
                options.getOrDefault("user", kind.equals("mariadb") ? "root" : "postgres"),
                options.getOrDefault("password", ""));
        String text = report(db, options);
        Path out = Path.of(options.getOrDefault("out", "target/bench-results-" + db.kind() + ".md"));
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, text, StandardCharsets.UTF_8);
        System.out.println(text);
        System.out.println("Written to " + out.toAbsolutePath());
        System.exit(0);
    }

    /**
     * Runs the workloads the options ask for.
     * @param db the database
     * @param options the options, without their leading dashes
     * @return the report, in Markdown
     * @throws Exception if a run fails
     */
    static String report(BenchDatabase db, Map<String, String> options) throws Exception {
        Bench bench = new Bench(db, options);
        try {
            return bench.run();
        } finally {
            if (bench.pool != null) {
                bench.pool.close();
            }
        }
    }

    /**
     * Runs the workloads the options ask for.
     * @return the report, in Markdown
     * @throws Exception if a run fails
     */
    String run() throws Exception {
        List<String> workloads =
                List.of(option("workloads", "W1,W2,W3,W4,SCALE").split(","));
        line("# dsched benchmark, " + this.db.kind());
        line("");
        line("- date: " + Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
        line("- commit: " + Provenance.commit());
        line("- machine: " + machine());
        line("- JVM: " + Provenance.jvm());
        line("- database: " + databaseVersion() + " at " + this.db.url());
        line("- database settings: " + Provenance.databaseSettings(this.db, jdbc()));
        line("- libraries: "
                + Contestants.oneOfEachKind().stream().map(Contestant::library).collect(Collectors.joining("; ")));
        line("- command: `./mvnw -B -Pbench -pl benchmarks -am package -DskipTests -Dbench.args=\""
                + String.join(
                        " ",
                        this.options.entrySet().stream()
                                .map((entry) -> "--" + entry.getKey() + " " + entry.getValue())
                                .toList())
                + "\"`");
        line("- every node is a JVM of its own with " + this.threads + " worker threads (W3: 60); each job body"
                + " inserts one row into `bench_run`; tables give the median of the runs and (min–max), and every run's values below them; enqueue/s counts"
                + " the time spent in the scheduler's submission calls, not the start of its client");
        line("- every run starts from the same database: every contestant's tables and `bench_run` dropped, then"
                + (this.db.isPostgres()
                        ? " `VACUUM ANALYZE` and `CHECKPOINT`"
                        : " a wait (2 min at most) until InnoDB's purge has caught up")
                + "; repetition r runs the contestants in their table order rotated to start at the r-th, so"
                + " that none always goes first");
        line("");
        if (this.db.isPostgres()
                && workloads.contains("W1")
                && !option("pgbench", "pgbench").equals("off")) {
            pgbench();
        }
        for (String workload : workloads) {
            switch (workload.trim().toUpperCase(Locale.ROOT)) {
                case "W1" -> w1();
                case "W2" -> w2();
                case "W3" -> w3();
                case "W4" -> w4();
                case "SCALE" -> scale();
                default -> throw new IllegalArgumentException("Unknown workload " + workload);
            }
        }
        return this.report.toString();
    }

    // W1 -----------------------------------------------------------------------------------------

    private void w1() throws Exception {
        int jobs = intOption("w1-jobs", 20_000);
        List<String> contestants = contestants(Workload.W1_ONE_OFF);
        Map<String, List<W1Result>> results = new LinkedHashMap<>();
        for (int rep = 0; rep < reps("W1"); rep++) {
            for (String name : rotated(contestants, rep)) {
                attempt("W1", name, rep, results, () -> oneOffRun(name, jobs, 2));
            }
        }
        line("## W1: " + String.format(Locale.ROOT, "%,d", jobs) + " one-off jobs due at once, 2 nodes, " + reps("W1")
                + " runs");
        line("");
        line("| contestant | executions/s | enqueue/s | duplicates | missing | dsched ÷ contestant |"
                + " database sessions busy with |");
        line("| --- | --- | --- | --- | --- | --- | --- |");
        double dsched = Stats.median(rates(results.get("dsched"), W1Result::executionsPerSecond));
        for (Map.Entry<String, List<W1Result>> entry : results.entrySet()) {
            List<Double> rates = rates(entry.getValue(), W1Result::executionsPerSecond);
            line("| " + entry.getKey() + " | " + Stats.spread(rates) + " | "
                    + Stats.spread(rates(entry.getValue(), W1Result::enqueuePerSecond)) + " | "
                    + sum(entry.getValue(), W1Result::duplicates) + " | " + sum(entry.getValue(), W1Result::missing)
                    + " | " + ratio(dsched, Stats.median(rates)) + " | "
                    + entry.getValue().get(0).waits() + " |");
        }
        line("");
        line("Missing counts jobs not run when the run ended: a run stops once no job has started for 60 s, or"
                + " after " + intOption("w1-max-seconds", 150) + " s; executions/s is measured over what ran.");
        line("");
        perRun(
                results,
                List.of(
                        Map.entry("executions/s", W1Result::executionsPerSecond),
                        Map.entry("enqueue/s", W1Result::enqueuePerSecond)));
        endTable("W1");
    }

    private W1Result oneOffRun(String name, int jobs, int nodes) throws Exception {
        Contestant contestant = Contestants.byName(name);
        resetAll(contestant);
        double enqueueSeconds = contestant.enqueue(this.db, jobs).toNanos() / 1e9;
        List<WorkerProcess> workers = startWorkers(contestant, Workload.W1_ONE_OFF, nodes, this.threads, null, 0);
        WaitSampler sampler = WaitSampler.start(this.db, jdbc());
        try {
            // a contestant far slower than the others is measured over a bounded time
            awaitProgress(
                    this::distinctStarted,
                    jobs,
                    Duration.ofSeconds(60),
                    Duration.ofSeconds(intOption("w1-max-seconds", 150)));
        } finally {
            close(sampler);
            stopAll(workers);
        }
        Map<String, Object> row = jdbc().queryForMap(
                        "SELECT COUNT(*) AS total, COUNT(DISTINCT run_key) AS distinct_keys, MIN(started_ms) AS first_ms,"
                                + " MAX(started_ms) AS last_ms FROM bench_run WHERE kind = 'S'");
        long total = ((Number) row.get("total")).longValue();
        long distinct = ((Number) row.get("distinct_keys")).longValue();
        double seconds =
                (((Number) row.get("last_ms")).longValue() - ((Number) row.get("first_ms")).longValue()) / 1000.0;
        return new W1Result(
                jobs / enqueueSeconds,
                distinct / Math.max(seconds, 0.001),
                total - distinct,
                jobs - distinct,
                summary(sampler));
    }

    record W1Result(double enqueuePerSecond, double executionsPerSecond, long duplicates, long missing, String waits) {
        @Override
        public String toString() {
            return Stats.number(executionsPerSecond) + " exec/s, " + Stats.number(enqueuePerSecond) + " enqueue/s, "
                    + duplicates + " duplicates, " + missing + " missing; database sessions: " + waits;
        }
    }

    // W2 -----------------------------------------------------------------------------------------

    private void w2() throws Exception {
        int jobs = intOption("w2-jobs", 500);
        int seconds = intOption("w2-seconds", 60);
        RecurringPlan plan = new RecurringPlan(jobs, "*/5 * * * * *", 5);
        List<String> contestants = contestants(Workload.W2_RECURRING);
        Map<String, List<RecurringResult>> results = new LinkedHashMap<>();
        for (int rep = 0; rep < reps("W2"); rep++) {
            for (String name : rotated(contestants, rep)) {
                attempt("W2", name, rep, results, () -> recurringRun(name, Workload.W2_RECURRING, plan, seconds));
            }
        }
        line("## W2: " + jobs + " recurring jobs on `" + plan.cron() + "` for " + seconds + " s, 2 nodes ("
                + (jobs * seconds / plan.periodSeconds()) + " fires expected per run), " + reps("W2") + " runs");
        line("");
        line("| contestant | fires seen | missing | duplicates | abs. lag p50 ms | abs. lag p99 ms | abs. lag max ms |"
                + " started early | earliest start ms | database sessions busy with |");
        line("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
        for (Map.Entry<String, List<RecurringResult>> entry : results.entrySet()) {
            List<RecurringResult> runs = entry.getValue();
            double earliest = runs.stream()
                    .mapToDouble(RecurringResult::earliest)
                    .filter((value) -> !Double.isNaN(value))
                    .min()
                    .orElse(Double.NaN);
            line("| " + entry.getKey() + " | " + Stats.spread(rates(runs, (run) -> (double) run.seen())) + " | "
                    + sum(runs, RecurringResult::missing) + " | " + sum(runs, RecurringResult::duplicates) + " | "
                    + Stats.spread(rates(runs, RecurringResult::p50)) + " | "
                    + Stats.spread(rates(runs, RecurringResult::p99)) + " | "
                    + Stats.spread(rates(runs, RecurringResult::max)) + " | "
                    + sum(runs, RecurringResult::early) + " | "
                    + (Double.isNaN(earliest) ? "none" : Stats.number(earliest)) + " | "
                    + runs.get(0).waits() + " |");
        }
        line("");
        line("Lag is when the job body first started minus the fire's scheduled time, from the first start of"
                + " each fire (a second start counts as a duplicate); its percentiles are of the absolute lag, so"
                + " that a fire started early counts as off by as much as one started late. Started early counts"
                + " the fires whose body started before their scheduled time, and the earliest start is the most"
                + " negative lag of all runs (none if no fire started early). Missing, duplicates and started early"
                + " are summed over all runs. The window starts " + intOption("w2-warmup-seconds", 20)
                + " s or more after every node is up, so that the fires which fell due while the nodes"
                + " started are not measured.");
        line("");
        perRun(
                results,
                List.of(
                        Map.entry("abs. lag p50 ms", RecurringResult::p50),
                        Map.entry("abs. lag p99 ms", RecurringResult::p99),
                        Map.entry("abs. lag max ms", RecurringResult::max),
                        Map.entry("started early", (run) -> (double) run.early())));
        endTable("W2");
    }

    private RecurringResult recurringRun(String name, Workload workload, RecurringPlan plan, int seconds)
            throws Exception {
        Contestant contestant = Contestants.byName(name);
        resetAll(contestant);
        contestant.defineRecurring(this.db, plan);
        List<WorkerProcess> workers = startWorkers(contestant, workload, 2, this.threads, plan, 0);
        WaitSampler sampler = WaitSampler.start(this.db, jdbc());
        long period = plan.periodSeconds() * 1000L;
        long from;
        long to;
        try {
            // the window starts on a period boundary at least one period and the warm-up after every
            // node is up: the burst of fires that fell due while the nodes started is not measured
            long warmup = intOption("w2-warmup-seconds", 20) * 1000L;
            from = ((System.currentTimeMillis() + warmup + period) / period + 1) * period;
            to = from + seconds * 1000L;
            pause(Math.max(0, to - System.currentTimeMillis()) + intOption("w2-grace-seconds", 15) * 1000L);
        } finally {
            close(sampler);
            stopAll(workers);
        }
        // one key a fire (job@scheduled time): the lag of its first start
        List<Map<String, Object>> rows = jdbc().queryForList(
                        "SELECT run_key, COUNT(*) AS runs, MIN(started_ms) - MIN(scheduled_ms) AS lag FROM bench_run"
                                + " WHERE kind = 'S' AND scheduled_ms >= ? AND scheduled_ms < ? GROUP BY run_key",
                        from,
                        to);
        List<Long> lags = rows.stream()
                .map((row) -> ((Number) row.get("lag")).longValue())
                .toList();
        List<Long> absolute = lags.stream().map(Math::abs).toList();
        long early = lags.stream().filter((lag) -> lag < 0).count();
        double earliest =
                (early > 0) ? lags.stream().mapToLong(Long::longValue).min().orElseThrow() : Double.NaN;
        long duplicates = rows.stream()
                .mapToLong((row) -> ((Number) row.get("runs")).longValue() - 1)
                .sum();
        long expected = (long) plan.jobs() * (seconds / plan.periodSeconds());
        return new RecurringResult(
                rows.size(),
                Math.max(0, expected - rows.size()),
                duplicates,
                Stats.percentile(absolute, 50),
                Stats.percentile(absolute, 99),
                Stats.percentile(absolute, 100),
                early,
                earliest,
                summary(sampler));
    }

    /**
     * One run of W2.
     * @param p50 median absolute lag
     * @param p99 99th percentile of the absolute lag
     * @param max largest absolute lag
     * @param early fires started before their scheduled time
     * @param earliest the most negative lag, NaN if no fire started early
     */
    record RecurringResult(
            long seen,
            long missing,
            long duplicates,
            double p50,
            double p99,
            double max,
            long early,
            double earliest,
            String waits) {
        @Override
        public String toString() {
            return seen + " seen, " + missing + " missing, " + duplicates + " duplicates, absolute lag p50/p99/max "
                    + p50 + "/" + p99 + "/" + max + " ms, " + early + " started early"
                    + (early > 0 ? " (earliest " + (long) earliest + " ms)" : "") + "; database sessions: " + waits;
        }
    }

    // W3 -----------------------------------------------------------------------------------------

    private void w3() throws Exception {
        int fires = intOption("w3-fires", 100);
        long hold = intOption("w3-hold-seconds", 20) * 1000L;
        List<String> contestants = contestants(Workload.W3_FAILOVER);
        Map<String, List<FailoverResult>> results = new LinkedHashMap<>();
        for (int rep = 0; rep < reps("W3"); rep++) {
            for (String name : rotated(contestants, rep)) {
                attempt("W3", name, rep, results, () -> failoverRun(name, fires, hold));
            }
        }
        line("## W3: " + fires + " one-off fires holding " + (hold / 1000) + " s on 3 nodes of "
                + intOption("w3-threads", 60) + " threads (two nodes can hold them all),"
                + " the busiest node killed with SIGKILL, " + reps("W3") + " runs");
        line("");
        line("| contestant | fires lost with the node | every lost fire re-run after, s | not re-run |"
                + " fires completed twice | failure detection |");
        line("| --- | --- | --- | --- | --- | --- |");
        for (Map.Entry<String, List<FailoverResult>> entry : results.entrySet()) {
            List<FailoverResult> runs = entry.getValue();
            line("| " + entry.getKey() + " | " + Stats.spread(rates(runs, (run) -> (double) run.lost())) + " | "
                    + Stats.spread(rates(runs, FailoverResult::rerunSeconds)) + " | "
                    + sum(runs, FailoverResult::notRerun) + " | " + sum(runs, FailoverResult::completedTwice) + " | "
                    + Contestants.byName(entry.getKey()).failureDetection() + " |");
        }
        line("");
        perRun(results, List.of(Map.entry("every lost fire re-run after, s", FailoverResult::rerunSeconds)));
        notes("W3");
    }

    private FailoverResult failoverRun(String name, int fires, long hold) throws Exception {
        Contestant contestant = Contestants.byName(name);
        resetAll(contestant);
        contestant.enqueue(this.db, fires);
        List<WorkerProcess> workers =
                startWorkers(contestant, Workload.W3_FAILOVER, 3, intOption("w3-threads", 60), null, hold);
        try {
            awaitProgress(this::distinctStarted, fires, Duration.ofSeconds(60), Duration.ofMinutes(5));
            Map<String, Object> busiest = jdbc().queryForMap(
                            "SELECT node, COUNT(*) AS runs FROM bench_run WHERE kind = 'S' GROUP BY node ORDER BY runs DESC"
                                    + " LIMIT 1");
            String victim = (String) busiest.get("node");
            WorkerProcess killed = workers.stream()
                    .filter((worker) -> worker.node().equals(victim))
                    .findFirst()
                    .orElseThrow();
            killed.kill();
            long killedAt = System.currentTimeMillis();
            List<String> lost = jdbc().queryForList(
                            "SELECT DISTINCT run_key FROM bench_run WHERE kind = 'S' AND node = ?",
                            String.class,
                            victim);
            String rerunQuery = "SELECT run_key, MIN(started_ms) AS first_ms FROM bench_run WHERE kind = 'S'"
                    + " AND node <> ? AND started_ms >= ? GROUP BY run_key";
            long deadline = System.currentTimeMillis() + 120_000;
            Map<String, Long> reruns = Map.of();
            while (System.currentTimeMillis() < deadline) {
                reruns = jdbc().queryForList(rerunQuery, victim, killedAt).stream()
                        .collect(Collectors.toMap(
                                (row) -> (String) row.get("run_key"),
                                (row) -> ((Number) row.get("first_ms")).longValue()));
                if (reruns.keySet().containsAll(lost)) {
                    break;
                }
                pause(200);
            }
            Map<String, Long> rerun = reruns;
            long notRerun =
                    lost.stream().filter((key) -> !rerun.containsKey(key)).count();
            double seconds = lost.stream()
                            .filter(rerun::containsKey)
                            .mapToLong((key) -> rerun.get(key) - killedAt)
                            .max()
                            .orElse(0)
                    / 1000.0;
            // let the re-runs finish, then count fires that completed more than once
            awaitProgress(
                    () -> jdbc().queryForObject(
                                    "SELECT COUNT(DISTINCT run_key) FROM bench_run WHERE kind = 'D'", Long.class),
                    fires,
                    Duration.ofSeconds(hold / 1000 + 60),
                    Duration.ofMinutes(3));
            long twice = jdbc().queryForObject(
                            "SELECT COUNT(*) FROM (SELECT run_key FROM bench_run WHERE kind = 'D' GROUP BY run_key"
                                    + " HAVING COUNT(*) > 1) twice",
                            Long.class);
            return new FailoverResult(lost.size(), seconds, notRerun, twice);
        } finally {
            stopAll(workers);
        }
    }

    record FailoverResult(long lost, double rerunSeconds, long notRerun, long completedTwice) {}

    // W4 -----------------------------------------------------------------------------------------

    private void w4() throws Exception {
        int jobs = intOption("w4-jobs", 1000);
        int seconds = intOption("w4-seconds", 30);
        RecurringPlan plan = new RecurringPlan(jobs, "* * * * * *", 1);
        List<String> contestants = contestants(Workload.W4_GUARD_OVERHEAD);
        Map<String, List<SaturationResult>> results = new LinkedHashMap<>();
        for (int rep = 0; rep < reps("W4"); rep++) {
            for (String name : rotated(contestants, rep)) {
                attempt("W4", name, rep, results, () -> saturationRun(name, plan, seconds));
            }
        }
        line("## W4: " + jobs + " recurring jobs every second (more than the nodes can fire) for " + seconds
                + " s, 2 nodes, Quartz's JDBC store under both, " + reps("W4") + " runs");
        line("");
        line("| contestant | fires run per second | dsched ÷ contestant | CPU ms per fire, worker JVMs"
                + " | CPU ms per fire, database | machine busy | database sessions busy with |");
        line("| --- | --- | --- | --- | --- | --- | --- |");
        double dsched = Stats.median(rates(results.get("dsched"), SaturationResult::firesPerSecond));
        results.forEach((name, runs) -> {
            List<Double> rates = rates(runs, SaturationResult::firesPerSecond);
            List<CpuMeter.Usage> cpu = runs.stream()
                    .map(SaturationResult::cpu)
                    .filter(java.util.Objects::nonNull)
                    .toList();
            line("| " + name + " | " + Stats.spread(rates) + " | " + ratio(dsched, Stats.median(rates)) + " | "
                    + cpuSpread(cpu, CpuMeter.Usage::jvmMillisPerFire) + " | "
                    + cpuSpread(cpu, CpuMeter.Usage::databaseMillisPerFire) + " | "
                    + (cpu.isEmpty()
                            ? "n/a"
                            : Math.round(Stats.median(cpu.stream()
                                                    .map(CpuMeter.Usage::machineBusy)
                                                    .toList())
                                            * 100)
                                    + " %")
                    + " | " + runs.get(0).waits() + " |");
        });
        line("");
        line("CPU per fire: user and system time that the two worker JVMs, and the database server's"
                + " processes, used during the measured window (Linux's /proc), divided by the fires run in it;"
                + " median (min–max) of the runs. The window starts after a warm-up of "
                + intOption("w4-warmup-seconds", 40) + " s, once the JIT compilers have done most of their work.");
        line("");
        perRun(results, List.of(Map.entry("fires run per second", SaturationResult::firesPerSecond)));
        endTable("W4");
    }

    private SaturationResult saturationRun(String name, RecurringPlan plan, int seconds) throws Exception {
        Contestant contestant = Contestants.byName(name);
        resetAll(contestant);
        contestant.defineRecurring(this.db, plan);
        List<WorkerProcess> workers = startWorkers(contestant, Workload.W4_GUARD_OVERHEAD, 2, this.threads, plan, 0);
        WaitSampler sampler = null;
        long from;
        long to;
        CpuMeter.Reading cpuFrom;
        CpuMeter.Reading cpuTo;
        try {
            pause(intOption("w4-warmup-seconds", 40) * 1000L);
            sampler = WaitSampler.start(this.db, jdbc());
            from = System.currentTimeMillis();
            cpuFrom = CpuMeter.read(workers);
            to = from + seconds * 1000L;
            pause(seconds * 1000L);
            cpuTo = CpuMeter.read(workers);
            pause(1000);
        } finally {
            close(sampler);
            stopAll(workers);
        }
        Long runs = jdbc().queryForObject(
                        "SELECT COUNT(DISTINCT run_key) FROM bench_run WHERE kind = 'S' AND started_ms >= ? AND started_ms < ?",
                        Long.class,
                        from,
                        to);
        CpuMeter.Usage cpu = (cpuFrom != null && cpuTo != null && runs > 0) ? cpuTo.since(cpuFrom, runs) : null;
        return new SaturationResult(runs / (double) seconds, summary(sampler), cpu);
    }

    record SaturationResult(double firesPerSecond, String waits, CpuMeter.Usage cpu) {
        @Override
        public String toString() {
            return Stats.number(firesPerSecond) + " fires/s; database sessions: " + waits
                    + ((cpu != null)
                            ? String.format(
                                    Locale.ROOT,
                                    "; CPU per fire: worker JVMs %.2f ms, database %.2f ms; machine %.0f%% busy",
                                    cpu.jvmMillisPerFire(),
                                    cpu.databaseMillisPerFire(),
                                    cpu.machineBusy() * 100)
                            : "");
        }
    }

    private static String cpuSpread(
            List<CpuMeter.Usage> cpu, java.util.function.ToDoubleFunction<CpuMeter.Usage> value) {
        if (cpu.isEmpty()) {
            return "n/a";
        }
        List<Double> values = cpu.stream().map(value::applyAsDouble).toList();
        return String.format(
                Locale.ROOT,
                "%.2f (%.2f–%.2f)",
                Stats.median(values),
                values.stream().mapToDouble(Double::doubleValue).min().orElse(0),
                values.stream().mapToDouble(Double::doubleValue).max().orElse(0));
    }

    // Scale --------------------------------------------------------------------------------------

    private void scale() throws Exception {
        int jobs = intOption("w1-jobs", 20_000);
        List<Integer> nodeCounts = List.of(option("scale-nodes", "1,2,4").split(",")).stream()
                .map(String::trim)
                .map(Integer::valueOf)
                .toList();
        List<String> contestants = List.of(option("scale-contestants", "dsched").split(","));
        line("## Scale: W1 (" + String.format(Locale.ROOT, "%,d", jobs) + " one-offs) on 1, 2 and 4 nodes of "
                + this.threads + " threads, " + reps("SCALE") + " runs each");
        line("");
        line("| contestant | nodes | executions/s | database sessions busy with |");
        line("| --- | --- | --- | --- |");
        // every (contestant, nodes) pair once a repetition, in an order that rotates
        List<Map.Entry<String, Integer>> cases = new ArrayList<>();
        for (String name : contestants) {
            for (int nodes : nodeCounts) {
                cases.add(Map.entry(name, nodes));
            }
        }
        Map<Map.Entry<String, Integer>, List<W1Result>> results = new LinkedHashMap<>();
        for (int rep = 0; rep < reps("SCALE"); rep++) {
            for (Map.Entry<String, Integer> run : rotated(cases, rep)) {
                W1Result result = oneOffRun(run.getKey(), jobs, run.getValue());
                progress("Scale " + run.getKey() + " " + run.getValue() + " nodes run " + (rep + 1) + ": " + result);
                results.computeIfAbsent(run, (ignored) -> new ArrayList<>()).add(result);
            }
        }
        for (Map.Entry<String, Integer> run : cases) {
            List<W1Result> runs = results.get(run);
            line("| " + run.getKey() + " | " + run.getValue() + " | "
                    + Stats.spread(rates(runs, W1Result::executionsPerSecond)) + " | "
                    + runs.get(0).waits() + " |");
        }
        line("");
        Map<String, List<W1Result>> byCase = new LinkedHashMap<>();
        results.forEach((run, runs) -> byCase.put(run.getKey() + ", " + run.getValue() + " nodes", runs));
        perRun(byCase, List.of(Map.entry("executions/s", W1Result::executionsPerSecond)));
    }

    // pgbench ------------------------------------------------------------------------------------

    private void pgbench() {
        String pgbench = option("pgbench", "pgbench");
        String database = "dsched_pgbench";
        List<String> server = List.of("-h", "localhost", "-U", this.db.user());
        try {
            psql(server, "DROP DATABASE IF EXISTS " + database);
            psql(server, "CREATE DATABASE " + database);
            run(concat(List.of(pgbench, "-i", "-q"), server, List.of(database)));
            line("## Ceiling: pgbench simple-update (`pgbench -b simple-update -n -T 15 -c C -j C`) on the same"
                    + " server");
            line("");
            line("| clients | TPS |");
            line("| --- | --- |");
            for (int clients : List.of(2, 8)) {
                String c = Integer.toString(clients);
                String out = run(concat(
                        List.of(pgbench, "-b", "simple-update", "-n", "-T", "15", "-c", c, "-j", c),
                        server,
                        List.of(database)));
                String tps = out.lines()
                        .filter((text) -> text.startsWith("tps"))
                        .findFirst()
                        .map((text) -> text.replaceAll("tps = ([0-9.]+).*", "$1"))
                        .orElse("NaN");
                line("| " + clients + " | " + Stats.number(Double.parseDouble(tps)) + " |");
            }
            line("");
            psql(server, "DROP DATABASE IF EXISTS " + database);
        } catch (Exception ex) {
            line("pgbench could not run here (" + ex.getMessage() + "); no ceiling measured.");
            line("");
        }
    }

    private static void psql(List<String> server, String sql) throws IOException, InterruptedException {
        run(concat(List.of("psql"), server, List.of("-d", "postgres", "-c", sql)));
    }

    @SafeVarargs
    private static List<String> concat(List<String>... parts) {
        List<String> all = new ArrayList<>();
        for (List<String> part : parts) {
            all.addAll(part);
        }
        return all;
    }

    private static String run(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (process.waitFor() != 0) {
            throw new IOException(String.join(" ", command) + " failed: " + out.strip());
        }
        return out;
    }

    // helpers ------------------------------------------------------------------------------------

    private final Map<String, String> failures = new LinkedHashMap<>();

    private static final String WAITS_NOTE = "Database sessions busy with: the two largest shares of the samples"
            + " (every 50 ms, PostgreSQL's `pg_stat_activity`) of busy database sessions during the first run:"
            + " waiting for Quartz's cluster-wide lock row, for other row locks, for the write-ahead log (commits),"
            + " for the application (a session inside a transaction waiting for its next statement), or running (CPU).";

    private static void close(WaitSampler sampler) {
        if (sampler != null) {
            sampler.close();
        }
    }

    private static String summary(WaitSampler sampler) {
        return (sampler != null) ? sampler.summary() : "n/a";
    }

    /** Runs one measurement; a contestant that cannot run it is left out of the table and noted. */
    private <R> void attempt(
            String workload, String name, int rep, Map<String, List<R>> results, Callable<R> measurement) {
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
    private <R> void perRun(Map<String, List<R>> results, List<Map.Entry<String, Function<R, Double>>> columns) {
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
    private void endTable(String workload) {
        line(WAITS_NOTE);
        line("");
        notes(workload);
    }

    private void notes(String workload) {
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
    private void resetAll(Contestant contestant) throws Exception {
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
     * rep mod n}, so that each contestant goes first as often as the others.
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

    private List<WorkerProcess> startWorkers(
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

    private static void stopAll(List<WorkerProcess> workers) {
        workers.parallelStream().forEach(WorkerProcess::close);
        long cpu = workers.stream()
                .mapToLong(WorkerProcess::cpuMillis)
                .filter((millis) -> millis >= 0)
                .sum();
        progress("  worker JVMs used " + cpu + " ms of CPU");
    }

    private long distinctStarted() {
        return jdbc().queryForObject("SELECT COUNT(DISTINCT run_key) FROM bench_run WHERE kind = 'S'", Long.class);
    }

    /** Waits until a count reaches a target, failing if it stops moving for too long. */
    private static void awaitProgress(
            java.util.function.LongSupplier count, long target, Duration stall, Duration atMost) {
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

    private JdbcTemplate jdbc() {
        if (this.jdbc == null) {
            this.pool = this.db.pool("bench-coordinator", 3);
            this.jdbc = new JdbcTemplate(this.pool);
        }
        return this.jdbc;
    }

    private List<String> contestants(Workload workload) {
        String wanted = option("contestants", "all");
        List<String> names = wanted.equals("all") ? Contestants.names() : List.of(wanted.split(","));
        return names.stream()
                .map(String::trim)
                .filter((name) -> Contestants.byName(name).supports(workload))
                .toList();
    }

    private int reps() {
        return intOption("reps", 5);
    }

    /** Repetitions of one workload: {@code --w2-reps} and so on, else {@code --reps}. */
    private int reps(String workload) {
        return intOption(workload.toLowerCase(Locale.ROOT) + "-reps", reps());
    }

    private String option(String name, String fallback) {
        return this.options.getOrDefault(name, fallback);
    }

    private int intOption(String name, int fallback) {
        return Integer.parseInt(option(name, Integer.toString(fallback)));
    }

    private void line(String text) {
        this.report.append(text).append('\n');
    }

    private static void progress(String text) {
        System.out.println("[bench " + Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS) + "] " + text);
    }

    private static <T> List<Double> rates(List<T> runs, Function<T, Double> value) {
        return (runs != null) ? runs.stream().map(value).toList() : List.of();
    }

    private static <T> long sum(List<T> runs, java.util.function.ToLongFunction<T> value) {
        return runs.stream().mapToLong(value).sum();
    }

    private static String ratio(double dsched, double other) {
        if (Double.isNaN(dsched) || Double.isNaN(other) || other == 0) {
            return "n/a";
        }
        return String.format(Locale.ROOT, "%.2f×", dsched / other);
    }

    private String databaseVersion() {
        return jdbc().queryForObject("SELECT version()", String.class);
    }

    private static String machine() {
        String cpu = "unknown CPU";
        try {
            cpu = Files.readAllLines(Path.of("/proc/cpuinfo")).stream()
                    .filter((text) -> text.startsWith("model name"))
                    .findFirst()
                    .map((text) -> text.replaceFirst("model name\\s*:\\s*", ""))
                    .orElse(cpu);
        } catch (IOException ex) {
            // not Linux
        }
        long memory = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                        .getTotalMemorySize()
                / (1024 * 1024 * 1024);
        return Runtime.getRuntime().availableProcessors() + " cores (" + cpu + "), " + memory + " GiB, "
                + System.getProperty("os.name") + " " + System.getProperty("os.version") + ", Java "
                + System.getProperty("java.version");
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
