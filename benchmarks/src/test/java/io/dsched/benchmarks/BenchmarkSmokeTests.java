package io.dsched.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.dsched.test.RedisServer;
import io.dsched.test.TestDatabase;
import io.dsched.test.TestDatabases;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A short run of every workload, so that the benchmark and every contestant's adapter keep
 * working: on PostgreSQL one contestant of each kind (each adapter) that takes part in W1 runs it in
 * worker JVMs of its own;
 * W2 runs for dsched, ShedLock and Quartz on dsched's store, W3 and W4 for dsched and that Quartz,
 * the scale-out (on 1 and 2 nodes) for dsched; W5 and W6 for dsched and each peer. On MariaDB, W1
 * runs for one contestant of each library, the two db-scheduler variants that MariaDB refuses show
 * as refused, and W5 runs for dsched with its notices through Redis. W7 runs a small sharded job on
 * one and two nodes. The numbers of so short a run
 * mean nothing; what they must show is that every job ran, and that dsched ran each exactly once.
 *
 * <p>Every other pairing of a contestant, a workload it takes part in and a database is left to
 * {@code -Pbench}, the other variants of each kind in W1 among them; and the contestants the smoke
 * does not run at all: {@code dsched-poll}
 * (dsched with its notices off, the same adapter), {@code dsched-writes-at-once} (dsched writing
 * its outcomes beside the starts, the same adapter), {@code dsched-virtual} (the same adapter on
 * virtual threads), {@code quartz-tuned}, {@code db-scheduler-lock-and-fetch} (settings of adapters
 * that run) and {@code db-scheduler-1s} (W2 alone).
 */
class BenchmarkSmokeTests {

    @Test
    void eachKindOfContestantRunsEveryWorkloadItTakesPartInAndDschedLosesNothing() throws Exception {
        try (TestDatabase server = TestDatabases.create(TestDatabases.Kind.POSTGRESQL);
                OwnDatabase database = new OwnDatabase(server)) {
            BenchDatabase db = database.db();
            // each adapter's code once: the first contestant of each kind that takes part in W1; the
            // other settings of a kind (its variants) are left to -Pbench
            Set<Class<?>> kinds = new HashSet<>();
            List<String> oneOfEachKind = Contestants.names().stream()
                    .filter((name) -> Contestants.byName(name).supports(Workload.W1_ONE_OFF)
                            && kinds.add(Contestants.byName(name).getClass()))
                    .toList();
            assertThat(oneOfEachKind).contains("dsched").hasSizeGreaterThanOrEqualTo(4);
            String report = Bench.report(
                    db, options(Map.of("workloads", "W1", "contestants", String.join(",", oneOfEachKind))));
            // where the numbers come from
            assertThat(report)
                    .containsPattern("- commit: ([0-9a-f]{40} \\((clean|dirty)|unknown)")
                    .containsPattern("- database settings: .*fsync=")
                    .containsPattern("- libraries: .*Quartz \\d")
                    .contains("- JVM: ");
            List<String> w1 = rows(report, "## W1");
            assertThat(w1)
                    .extracting(BenchmarkSmokeTests::contestant)
                    .containsExactlyInAnyOrderElementsOf(oneOfEachKind);
            // every contestant ran all its jobs; no duplicates for dsched
            // nothing missing (never started) or not completed (started, never seen completed)
            assertThat(w1).allSatisfy((row) -> assertThat(cell(row, 5)).as(row).isEqualTo("0"));
            assertThat(w1).allSatisfy((row) -> assertThat(cell(row, 6)).as(row).isEqualTo("0"));
            assertThat(cell(row(w1, "dsched"), 4)).as("duplicates").isEqualTo("0");
            // every run's values, not only the median
            assertThat(rows(report.substring(report.indexOf("Every run, in the order they ran")), "| contestant |"))
                    .extracting(BenchmarkSmokeTests::contestant)
                    .contains("dsched");

            String more = Bench.report(
                    db,
                    options(Map.ofEntries(
                            Map.entry("workloads", "W2,W3,W4,SCALE"),
                            Map.entry("contestants", "dsched,spring-scheduled-shedlock,quartz-skip-locked"),
                            Map.entry("w2-jobs", "20"),
                            Map.entry("w2-seconds", "5"),
                            Map.entry("w2-grace-seconds", "8"),
                            Map.entry("w2-warmup-seconds", "0"),
                            Map.entry("w3-fires", "12"),
                            // as many threads a node as fires, so that the two nodes left can hold
                            // them all, as the 60 threads of a full run do for its 100 fires
                            Map.entry("w3-threads", "12"),
                            // long enough that the fires still run when the node is killed on a loaded machine
                            Map.entry("w3-hold-seconds", "6"),
                            Map.entry("w4-jobs", "50"),
                            Map.entry("w4-seconds", "3"),
                            Map.entry("w4-warmup-seconds", "4"))));
            List<String> w2 = rows(more, "## W2");
            assertThat(w2)
                    .extracting(BenchmarkSmokeTests::contestant)
                    .containsExactlyInAnyOrder("dsched", "quartz-skip-locked", "spring-scheduled-shedlock");
            assertThat(number(cell(row(w2, "dsched"), 1))).as("fires seen").isEqualTo(20.0);
            assertThat(cell(row(w2, "dsched"), 2)).isEqualTo("0");
            assertThat(cell(row(w2, "dsched"), 3)).isEqualTo("0");
            // absolute lag, and the fires started early counted apart
            assertThat(more).contains("| abs. lag p50 ms |", "| started early | earliest start ms |");
            // dsched starts no fire before its time
            assertThat(cell(row(w2, "dsched"), 7)).as("fires started early").isEqualTo("0");
            List<String> w3 = rows(more, "## W3");
            assertThat(cell(row(w3, "dsched"), 3)).as("fires not re-run").isEqualTo("0");
            assertThat(cell(row(w3, "dsched"), 4)).as("fires completed twice").isEqualTo("0");
            assertThat(Double.parseDouble(cell(row(w3, "dsched"), 1)))
                    .as("fires lost")
                    .isPositive();
            assertThat(cell(row(w3, "dsched"), 5)).as("failure detection").contains("10 s");
            List<String> w4 = rows(more, "## W4");
            assertThat(w4)
                    .extracting(BenchmarkSmokeTests::contestant)
                    .containsExactlyInAnyOrder("dsched", "quartz-skip-locked");
            assertThat(w4).allSatisfy((row) -> assertThat(number(cell(row, 1))).isPositive());
            if (java.nio.file.Files.isReadable(java.nio.file.Path.of("/proc/stat"))) {
                // CPU per fire of the worker JVMs and of the database, read from Linux's /proc
                assertThat(w4).allSatisfy((row) -> {
                    assertThat(number(cell(row, 3)))
                            .as("worker JVMs' CPU ms per fire")
                            .isPositive();
                    assertThat(number(cell(row, 4)))
                            .as("database's CPU ms per fire")
                            .isPositive();
                });
            }
            List<String> scale = rows(more, "## Scale");
            assertThat(scale).extracting((row) -> cell(row, 1)).containsExactly("1", "2");
            assertThat(more).doesNotContain("could not run");
        }
    }

    @Test
    void w5SubmitsWhileTheNodesRunOnANodeAndByAClientAndEveryJobStartsOnce() throws Exception {
        try (TestDatabase server = TestDatabases.create(TestDatabases.Kind.POSTGRESQL);
                OwnDatabase database = new OwnDatabase(server)) {
            assertThat(Contestants.names().stream()
                            .filter((name) -> Contestants.byName(name).supports(Workload.W5_SUBMIT_LATENCY)))
                    .containsExactly("dsched", "dsched-poll", "db-scheduler-immediate", "jobrunr-5s");
            // dsched and each peer (dsched-poll is dsched with the notices off, a setting apart); 20
            // measured jobs a shape, after 10 of warm-up
            List<String> contestants = List.of("dsched", "db-scheduler-immediate", "jobrunr-5s");
            String report = Bench.report(
                    database.db(),
                    options(Map.of(
                            "workloads",
                            "W5",
                            "contestants",
                            String.join(",", contestants),
                            "w5-rate",
                            "10",
                            "w5-seconds",
                            "2",
                            "w5-warmup-seconds",
                            "1")));
            for (String heading : List.of("## W5, submitted on a node", "## W5, submitted by a client")) {
                List<String> w5 = rows(report, heading);
                assertThat(w5).extracting(BenchmarkSmokeTests::contestant).containsExactlyElementsOf(contestants);
                assertThat(w5).allSatisfy((row) -> {
                    // every job submitted, and started exactly once
                    assertThat(cell(row, 1)).as("submitted: " + row).isEqualTo("20");
                    assertThat(cell(row, 2)).as("started: " + row).isEqualTo("20");
                    assertThat(cell(row, 3)).as("missing: " + row).isEqualTo("0");
                    assertThat(cell(row, 4)).as("started twice: " + row).isEqualTo("0");
                    // p50, p95, p99 and max: measured, not negative, in order
                    List<Double> latencies = List.of(5, 6, 7, 8).stream()
                            .map((column) -> number(cell(row, column)))
                            .toList();
                    assertThat(latencies).as("latencies: " + row).allSatisfy((ms) -> assertThat(ms)
                            .isNotNegative());
                    assertThat(latencies).as("latencies: " + row).isSorted();
                    assertThat(cell(row, 9)).as("setting for latency").isNotEqualTo("n/a");
                });
            }
            assertThat(report).contains("| latency p50 ms | latency p99 ms | latency max ms | behind schedule ms |");
            assertThat(report).doesNotContain("could not run");
        }
    }

    @Test
    void w6RunsEveryJobOfEachContestantAndDschedHoldsItsLimits() throws Exception {
        try (TestDatabase server = TestDatabases.create(TestDatabases.Kind.POSTGRESQL);
                OwnDatabase database = new OwnDatabase(server)) {
            List<String> contestants = List.of("dsched", "db-scheduler-lock-and-fetch-throughput", "jobrunr-5s");
            assertThat(Contestants.names().stream()
                            .filter((name) -> Contestants.byName(name).supports(Workload.W6_LIMITS)))
                    .containsExactlyElementsOf(contestants);
            // 400 jobs on 3 nodes of 4 threads: 80 waves of 5 under the concurrency limit, and the
            // burst of 100 then 300 at 100 a second under the rate
            String report = Bench.report(database.db(), options(Map.of("workloads", "W6", "w6-jobs", "400")));
            for (String heading : List.of("## W6, concurrency", "## W6, rate")) {
                List<String> w6 = rows(report, heading);
                assertThat(w6).extracting(BenchmarkSmokeTests::contestant).containsExactlyElementsOf(contestants);
                assertThat(w6).allSatisfy((row) -> {
                    assertThat(cell(row, 1)).as("jobs run: " + row).isEqualTo("400");
                    assertThat(cell(row, 2)).as("missing: " + row).isEqualTo("0");
                });
                assertThat(cell(row(w6, "dsched"), 3)).as("duplicates").isEqualTo("0");
                assertThat(cell(row(w6, "dsched"), 8)).as("limit").contains("@JobHandler(");
            }
            String concurrency = row(rows(report, "## W6, concurrency"), "dsched");
            assertThat(number(cell(concurrency, 4))).as("most at once").isBetween(1.0, 5.0);
            assertThat(cell(concurrency, 5)).as("overshoot").isEqualTo("0");
            // the burst of 100, then 300 at 100 a second: 3 s from the first start to the last at
            // least, where 12 threads without the limit take under 2 s
            String rate = row(rows(report, "## W6, rate"), "dsched");
            assertThat(number(cell(rate, 6))).as("first to last start s").isGreaterThan(2.5);
            assertThat(report).doesNotContain("could not run");
        }
    }

    @Test
    void w7SplitsEachFireOverTheNodesAndRunsEveryShardOnce() throws Exception {
        try (TestDatabase server = TestDatabases.create(TestDatabases.Kind.POSTGRESQL);
                OwnDatabase database = new OwnDatabase(server)) {
            assertThat(Contestants.names().stream()
                            .filter((name) -> Contestants.byName(name).supports(Workload.W7_SHARDS)))
                    .containsExactly("dsched");
            // 40 shards of 50 ms on 1 and 2 nodes of 4 threads, one fire measured after the first
            String report = Bench.report(
                    database.db(),
                    options(Map.of(
                            "workloads", "W7",
                            "w7-shards", "40",
                            "w7-shard-ms", "50",
                            "w7-fires", "1",
                            "w7-nodes", "1,2")));
            List<String> w7 = rows(report, "## W7");
            assertThat(w7).extracting((row) -> cell(row, 0)).containsExactly("1", "2");
            assertThat(w7).allSatisfy((row) -> {
                // the fire ended, every shard once
                assertThat(cell(row, 5)).as("fires not ended: " + row).isEqualTo("0");
                assertThat(cell(row, 6)).as("shards run twice: " + row).isEqualTo("0");
                // 40 shards of 50 ms on 4 threads a node: 250 ms on two nodes at least
                assertThat(number(cell(row, 1))).as("fire to last end: " + row).isGreaterThanOrEqualTo(250.0);
            });
            // and 500 ms on one
            assertThat(number(cell(row(w7, "1"), 1)))
                    .as("fire to last end, 1 node")
                    .isGreaterThanOrEqualTo(500.0);
            // one node runs every shard; two share them
            assertThat(number(cell(row(w7, "1"), 4)))
                    .as("most on a node, 1 node")
                    .isEqualTo(40.0);
            assertThat(number(cell(row(w7, "2"), 4)))
                    .as("most on a node, 2 nodes")
                    .isLessThan(40.0);
            assertThat(report).doesNotContain("could not run");
        }
    }

    @Test
    void w8TimesEveryCallOnAnEmptyAndAFullHistoryAndDeletesADayBesideTheClaimsOnPostgres() throws Exception {
        try (TestDatabase server = TestDatabases.create(TestDatabases.Kind.POSTGRESQL);
                OwnDatabase database = new OwnDatabase(server)) {
            assertHistoryAtScale(database.db());
        }
    }

    @Test
    void w8RunsOnMariadbToo() throws Exception {
        try (TestDatabase database = TestDatabases.create(TestDatabases.Kind.MARIADB)) {
            assertHistoryAtScale(new BenchDatabase(database.url(), database.username(), database.password()));
        }
    }

    /**
     * Runs W8 on a history of 14,000 rows, 1,000 a day: every call is timed on each history, and
     * the purge deletes the oldest day and nothing else.
     */
    private static void assertHistoryAtScale(BenchDatabase db) throws Exception {
        String report = Bench.report(
                db,
                options(Map.of(
                        "workloads",
                        "W8",
                        "w8-rows",
                        "14000",
                        "w8-claims",
                        "20",
                        "w8-reads",
                        "2",
                        "w8-alone-seconds",
                        "1")));
        List<String> w8 = rows(report, "## W8: history at scale");
        assertThat(w8)
                .extracting(BenchmarkSmokeTests::contestant)
                .contains("claim of a fire (insert)", "claim of a due one-off", "outcome of a success")
                .contains("executions, first page", "overview, last 24 h", "an execution's page");
        assertThat(w8).allSatisfy((row) -> {
            // p50 and p99 on each history (empty, one day, 14 days), measured and in order
            for (int column : List.of(1, 3, 5)) {
                assertThat(number(cell(row, column))).as(row).isPositive();
                assertThat(number(cell(row, column))).as(row).isLessThanOrEqualTo(number(cell(row, column + 1)));
            }
        });
        assertThat(rows(report, "### W8: claims while housekeeping deletes a day"))
                .hasSize(3);
        // what the purge says it deleted is what left the history: every seeded row older than
        // the retention of 13 days, and no other
        String deleted = report.replaceAll("(?s).*Rows housekeeping deleted a round [^:]*: ([0-9,]+);.*", "$1")
                .replace(",", "");
        try (HikariDataSource pool = db.pool("smoke", 1)) {
            Long seededLeft = new JdbcTemplate(pool)
                    .queryForObject(
                            "SELECT COUNT(*) FROM dsched_execution WHERE idempotency_key LIKE '%@seed%'", Long.class);
            assertThat(Long.parseLong(deleted)).isBetween(999L, 1_002L).isEqualTo(14_000 - seededLeft);
        }
        assertThat(report).doesNotContain("could not run");
    }

    @Test
    void everyContestantRunsOnMariadbToo() throws Exception {
        try (TestDatabase database = TestDatabases.create(TestDatabases.Kind.MARIADB)) {
            BenchDatabase db = new BenchDatabase(database.url(), database.username(), database.password());
            // one contestant of each kind, and the variants that MariaDB refuses
            List<String> ran = List.of("dsched", "quartz-skip-locked", "db-scheduler-fetch", "jobrunr");
            List<String> refused = List.of("db-scheduler-lock-and-fetch", "db-scheduler-lock-and-fetch-throughput");
            String report = Bench.report(
                    db,
                    options(Map.of(
                            "workloads",
                            "W1",
                            "contestants",
                            String.join(",", ran) + "," + String.join(",", refused))));
            assertThat(report)
                    .containsPattern("- database settings: .*innodb_flush_log_at_trx_commit=")
                    .containsPattern("- libraries: .*db-scheduler \\d");
            // db-scheduler refuses lock-and-fetch on MariaDB; every other contestant ran and completed
            // all its jobs
            List<String> w1 = rows(report, "## W1");
            assertThat(w1).extracting(BenchmarkSmokeTests::contestant).containsExactlyInAnyOrderElementsOf(ran);
            assertThat(refused).allSatisfy((name) -> assertThat(report).contains("- " + name + " could not run: "));
            // nothing missing (never started) or not completed (started, never seen completed)
            assertThat(w1).allSatisfy((row) -> assertThat(cell(row, 5)).as(row).isEqualTo("0"));
            assertThat(w1).allSatisfy((row) -> assertThat(cell(row, 6)).as(row).isEqualTo("0"));
            assertThat(cell(row(w1, "dsched"), 4)).as("duplicates").isEqualTo("0");

            // the notices through Redis, which MariaDB lacks, with a Redis server of the test's own
            try (RedisServer redis = RedisServer.start()) {
                String w5 = Bench.report(
                        db,
                        options(Map.of(
                                "workloads", "W5",
                                "contestants", "dsched-redis",
                                "redis", "127.0.0.1:" + redis.port(),
                                "w5-rate", "10",
                                "w5-seconds", "2",
                                "w5-warmup-seconds", "1")));
                for (String heading : List.of("## W5, submitted on a node", "## W5, submitted by a client")) {
                    String row = row(rows(w5, heading), "dsched-redis");
                    assertThat(cell(row, 1)).as("submitted: " + row).isEqualTo("20");
                    assertThat(cell(row, 2)).as("started: " + row).isEqualTo("20");
                    assertThat(cell(row, 3)).as("missing: " + row).isEqualTo("0");
                    assertThat(cell(row, 4)).as("started twice: " + row).isEqualTo("0");
                }
                assertThat(w5).doesNotContain("could not run");
            }
        }
    }

    /**
     * A database of the test's own on the test server: JobRunr looks for its tables in the
     * database's default schema, so the schema of its own that each test gets will not do.
     */
    private static final class OwnDatabase implements AutoCloseable {

        private final TestDatabase server;

        private final String name =
                "dsched_bench_" + UUID.randomUUID().toString().substring(0, 8);

        OwnDatabase(TestDatabase server) throws SQLException {
            this.server = server;
            execute("CREATE DATABASE " + this.name);
        }

        BenchDatabase db() {
            String admin = this.server.adminUrl();
            int query = admin.indexOf('?');
            String base = (query < 0) ? admin : admin.substring(0, query);
            String url = base.substring(0, base.lastIndexOf('/') + 1)
                    + this.name
                    + ((query < 0) ? "" : admin.substring(query));
            return new BenchDatabase(url, this.server.username(), this.server.password());
        }

        private void execute(String sql) throws SQLException {
            try (Connection connection = DriverManager.getConnection(
                            this.server.adminUrl(), this.server.username(), this.server.password());
                    Statement statement = connection.createStatement()) {
                statement.execute(sql);
            }
        }

        @Override
        public void close() throws SQLException {
            execute("DROP DATABASE IF EXISTS " + this.name + " WITH (FORCE)");
        }
    }

    private static Map<String, String> options(Map<String, String> workload) {
        Map<String, String> options = new LinkedHashMap<>();
        options.put("reps", "1");
        options.put("threads", "4");
        options.put("pgbench", "off");
        options.put("scale-nodes", "1,2");
        // enough to keep both nodes' four threads busy at once; the count of jobs run, duplicates
        // and missing is exact whatever the number
        options.put("w1-jobs", "100");
        options.put("logs", "target/bench-smoke-logs");
        options.putAll(workload);
        return options;
    }

    /** The data rows of the table under a heading. */
    private static List<String> rows(String report, String heading) {
        assertThat(report).contains(heading);
        String section = report.substring(report.indexOf(heading));
        return section.lines()
                .dropWhile((line) -> !line.startsWith("| ---"))
                .skip(1)
                .takeWhile((line) -> line.startsWith("|"))
                .toList();
    }

    private static String row(List<String> rows, String contestant) {
        return rows.stream()
                .filter((row) -> contestant(row).equals(contestant))
                .findFirst()
                .orElseThrow(() -> new AssertionError("No row for " + contestant + " in " + rows));
    }

    private static String contestant(String row) {
        return cell(row, 0);
    }

    private static String cell(String row, int index) {
        String[] cells = Arrays.stream(row.split("\\|")).map(String::trim).toArray(String[]::new);
        return cells[index + 1];
    }

    private static double number(String cell) {
        return Double.parseDouble(cell.split(" ")[0].replace(",", ""));
    }
}
