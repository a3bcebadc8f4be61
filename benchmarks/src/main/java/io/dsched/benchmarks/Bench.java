package io.dsched.benchmarks;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The coordinator: runs each workload for each contestant, several times, with every node in a
 * worker JVM of its own, and prints the tables. Each workload is a class of its own ({@link
 * OneOffThroughput} for W1 and the scale runs, {@link RecurringAccuracy}, {@link Failover}, {@link
 * GuardOverhead}, {@link SubmitLatency}, {@link LimitOvershoot}, {@link ShardScaling}, {@link HistoryAtScale}, {@link PgbenchCeiling}); what they share is the {@link Harness}.
 * Options (all optional):
 *
 * <pre>
 * --db postgresql|mariadb   --url jdbc:... --user u --password p
 * --workloads W1,W2,W3,W4,W5,SCALE,W6,W7,W8   --contestants name,name|all   --reps 5   --threads 10
 * --w1-jobs 20000   --w2-jobs 500   --w2-seconds 60   --w2-warmup-seconds 20   --w3-fires 100   --w4-jobs 1000
 * --w4-seconds 30   --w4-warmup-seconds 40   --w5-rate 50   --w5-seconds 30   --w5-warmup-seconds 5
 * --w6-jobs 1000   --w6-call-ms 50   --w6-max-seconds 120   --w7-shards 100   --w7-shard-ms 50   --w7-fires 10
 * --w7-nodes 1,2,3
 * --w8-rows 10000000   --w8-claims 300   --w8-reads 20   --scale-nodes 1,2,4   --out FILE
 * </pre>
 */
public final class Bench {

    private final Harness harness;

    private final BenchDatabase db;

    private Bench(Harness harness) {
        this.harness = harness;
        this.db = harness.db();
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
        try (Harness harness = new Harness(db, options)) {
            return new Bench(harness).run();
        }
    }

    /**
     * Runs the workloads the options ask for.
     * @return the report, in Markdown
     * @throws Exception if a run fails
     */
    String run() throws Exception {
        List<String> workloads =
                List.of(this.harness.option("workloads", "W1,W2,W3,W4,W5,SCALE").split(","));
        this.harness.line("# dsched benchmark, " + this.db.kind());
        this.harness.line("");
        this.harness.line("- date: " + Instant.now().truncatedTo(java.time.temporal.ChronoUnit.SECONDS));
        this.harness.line("- commit: " + Provenance.commit());
        this.harness.line("- machine: " + machine());
        this.harness.line("- JVM: " + Provenance.jvm());
        this.harness.line("- database: " + databaseVersion() + " at " + this.db.url());
        this.harness.line("- database settings: " + Provenance.databaseSettings(this.db, this.harness.jdbc()));
        this.harness.line("- libraries: "
                + Contestants.oneOfEachKind().stream().map(Contestant::library).collect(Collectors.joining("; ")));
        this.harness.line("- command: `./mvnw -B -Pbench -pl benchmarks -am package -DskipTests -Dbench.args=\""
                + String.join(
                        " ",
                        this.harness.options().entrySet().stream()
                                .map((entry) -> "--" + entry.getKey() + " " + entry.getValue())
                                .toList())
                + "\"`");
        this.harness.line("- every node is a JVM of its own with " + this.harness.threads()
                + " worker threads (W3: 60); each job body"
                + " inserts one row into `bench_run`; tables give the median of the runs and (min–max), and every run's values below them; enqueue/s counts"
                + " the time spent in the scheduler's submission calls, not the start of its client");
        this.harness.line(
                "- every run starts from the same database: every contestant's tables and `bench_run` dropped, then"
                        + (this.db.isPostgres()
                                ? " `VACUUM ANALYZE` and `CHECKPOINT`"
                                : " a wait (2 min at most) until InnoDB's purge has caught up")
                        + "; repetition r runs the contestants in their table order rotated to start at the r-th, so"
                        + " that none always goes first");
        this.harness.line("");
        if (this.db.isPostgres()
                && workloads.contains("W1")
                && !this.harness.option("pgbench", "pgbench").equals("off")) {
            new PgbenchCeiling(this.harness).run();
        }
        for (String workload : workloads) {
            switch (workload.trim().toUpperCase(Locale.ROOT)) {
                case "W1" -> new OneOffThroughput(this.harness).w1();
                case "W2" -> new RecurringAccuracy(this.harness).run();
                case "W3" -> new Failover(this.harness).run();
                case "W4" -> new GuardOverhead(this.harness).run();
                case "W5" -> new SubmitLatency(this.harness).run();
                case "W6" -> new LimitOvershoot(this.harness).run();
                case "W7" -> new ShardScaling(this.harness).run();
                case "W8" -> new HistoryAtScale(this.harness).run();
                case "SCALE" -> new OneOffThroughput(this.harness).scale();
                default -> throw new IllegalArgumentException("Unknown workload " + workload);
            }
        }
        return this.harness.text();
    }

    private String databaseVersion() {
        return this.harness.jdbc().queryForObject("SELECT version()", String.class);
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
}
