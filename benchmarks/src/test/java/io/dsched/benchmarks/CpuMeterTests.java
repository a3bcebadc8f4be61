package io.dsched.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dsched.test.TestDatabase;
import io.dsched.test.TestDatabases;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class CpuMeterTests {

    @Test
    void readsTheTimesOfAProcessAndOfItsEndedChildrenFromItsStatLine() {
        // a command name that holds a space and a closing parenthesis, as a process may give itself
        String stat = "4242 (post gres) x) S 1 4242 4242 0 -1 4194560 900 0 0 0 "
                + "17 5 230 41 20 0 1 0 100 200000 300 18446744073709551615";

        assertThat(CpuMeter.ownTicks(stat)).isEqualTo(22);
        assertThat(CpuMeter.endedChildrenTicks(stat)).isEqualTo(271);
    }

    @Test
    void aSpreadIsTheMedianWithTheLowestAndHighestOfTheRuns() {
        List<CpuMeter.Usage> runs = List.of(
                new CpuMeter.Usage(0.9, 0.1, 2.0, 0.5),
                new CpuMeter.Usage(0.5, 0.2, 1.0, 0.5),
                new CpuMeter.Usage(0.7, 0.4, 3.25, 0.5));

        assertThat(CpuMeter.spread(runs, CpuMeter.Usage::jvmMillisPerFire)).isEqualTo("0.70 (0.50–0.90)");
        assertThat(CpuMeter.spread(runs, CpuMeter.Usage::databaseMillisPerFire)).isEqualTo("2.00 (1.00–3.25)");
        assertThat(CpuMeter.spread(runs, CpuMeter.Usage::jvmWithoutCompilersMillisPerFire))
                .isEqualTo("0.30 (0.30–0.80)");
        assertThat(CpuMeter.spread(List.of(), CpuMeter.Usage::jvmMillisPerFire)).isEqualTo("n/a");
    }

    @Test
    void theJitCompilersAreTheThreadsHotSpotNamesSo() {
        assertThat(CpuMeter.isCompilerThread("77 (C2 CompilerThre) S 1 2 3 0 -1 0 0 0 0 0 40 2 0 0"))
                .isTrue();
        assertThat(CpuMeter.isCompilerThread("78 (C1 CompilerThre) S 1 2 3 0 -1 0 0 0 0 0 40 2 0 0"))
                .isTrue();
        assertThat(CpuMeter.isCompilerThread("79 (dsched-queue-1) S 1 2 3 0 -1 0 0 0 0 0 40 2 0 0"))
                .isFalse();
        assertThat(CpuMeter.isCompilerThread("80 (GC Thread#0) S 1 2 3 0 -1 0 0 0 0 0 40 2 0 0"))
                .isFalse();
    }

    /**
     * PostgreSQL ends a backend when its connection closes: the database's CPU must still count
     * what that backend used, so that a reading never falls below an earlier one.
     */
    @Test
    void theDatabasesTimeKeepsWhatABackendUsedOnceItsConnectionCloses() throws Exception {
        try (TestDatabase database = TestDatabases.create(TestDatabases.Kind.POSTGRESQL)) {
            CpuMeter.Reading before;
            long backend;
            try (Connection connection =
                            DriverManager.getConnection(database.url(), database.username(), database.password());
                    Statement statement = connection.createStatement()) {
                long pid = backendPid(statement);
                Path stat = Path.of("/proc", String.valueOf(pid), "stat");
                assertThat(stat)
                        .as("the test server's backend, on this machine")
                        .isReadable();
                // work enough for the backend's own time to dwarf what the server's other
                // processes use in the moment its connection takes to close
                statement.execute("SELECT count(*) FROM generate_series(1, 3000000)");
                before = CpuMeter.read(List.of());
                assertThat(CpuMeter.ownTicks(Files.readString(stat)))
                        .as("the backend's own time")
                        .isGreaterThan(5);
                backend = pid;
            }
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> !Files.exists(Path.of("/proc", String.valueOf(backend))));
            CpuMeter.Reading after = CpuMeter.read(List.of());

            assertThat(after.database()).isGreaterThanOrEqualTo(before.database());
        }
    }

    private static long backendPid(Statement statement) throws Exception {
        try (ResultSet rows = statement.executeQuery("SELECT pg_backend_pid()")) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
