package io.dsched.sample.crashlab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import io.dsched.sample.crashlab.CrashLab.Tick;
import io.dsched.test.Prerequisites;
import io.dsched.test.TestDatabase;
import io.dsched.test.TestDatabases;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.util.FileSystemUtils;
import tools.jackson.databind.JsonNode;

/**
 * Clock skew with real JVMs: two nodes of the sample's jar over one database, the second started
 * under libfaketime with its clock 30 s ahead, read from a file so that the test can set it back
 * to zero while the JVM runs. The ticker fires every second and records the database's time when
 * each run starts. Without libfaketime the test is skipped, and fails when {@code CI=true}.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
abstract class AbstractClockSkewIT {

    private static final Logger logger = LoggerFactory.getLogger(AbstractClockSkewIT.class);

    private static final List<String> LIBFAKETIME = List.of(
            "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1",
            "/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1",
            "/usr/lib/faketime/libfaketime.so.1",
            "/usr/local/lib/faketime/libfaketime.so.1");

    private static final Pattern OFFSET_SERIES =
            Pattern.compile("(?m)^dsched_node_clock_offset_seconds(?:\\{[^}]*})? (\\S+)$");

    private CrashLab lab;

    private Path logs;

    protected abstract TestDatabases.Kind kind();

    protected abstract String profile();

    @BeforeEach
    void createLab() throws IOException {
        this.logs = Path.of("target", "crashlab", getClass().getSimpleName());
        FileSystemUtils.deleteRecursively(this.logs);
        Files.createDirectories(this.logs);
        TestDatabase database = TestDatabases.create(kind());
        try {
            this.lab = new CrashLab(database, profile(), this.logs);
        } catch (RuntimeException ex) {
            database.close();
            throw ex;
        }
    }

    @AfterEach
    void closeLab() {
        if (this.lab != null) {
            this.lab.close();
        }
    }

    @Test
    void aNodeWhoseClockRunsThirtySecondsAheadFiresNothingEarlyIsReportedSkewedAndFiresAgainOnceItsClockIsBack()
            throws IOException {
        Path libfaketime = libfaketime();
        Path offsetFile = this.logs.resolve("node-2.faketime").toAbsolutePath();
        Files.writeString(offsetFile, "+30s\n");
        Map<String, String> ahead = Map.of(
                "LD_PRELOAD", libfaketime.toString(),
                "FAKETIME_TIMESTAMP_FILE", offsetFile.toString(),
                "FAKETIME_CACHE_DURATION", "1",
                "FAKETIME_DONT_FAKE_MONOTONIC", "1",
                "DONT_FAKE_MONOTONIC", "1",
                // the fix wraps the JVM's timed waits and slows its start from seconds to minutes
                "FAKETIME_FORCE_MONOTONIC_FIX", "0");
        List<SampleNode> nodes = this.lab.start(2, Map.of("node-2", ahead));
        SampleNode steady = nodes.get(0);
        SampleNode skewed = nodes.get(1);

        // the JVM's clock really runs ahead: its web server dates its answers by it
        Duration jvmAhead = Duration.between(Instant.now(), skewed.date());
        assertThat(jvmAhead.toSeconds()).isBetween(28L, 32L);
        JsonNode health = skewed.health();
        double measured = health.at("/details/clockOffsetSeconds").asDouble();
        assertThat(measured).isCloseTo(30.0, within(1.0));
        assertThat(health.at("/details/clockSkewed").asBoolean()).isTrue();
        assertThat(health.at("/status").asString()).isEqualTo("UP");
        assertThat(offsetSeries(skewed)).isCloseTo(30.0, within(1.0));
        JsonNode shown = node(steady.overview(), "node-2");
        assertThat(shown.get("clockSkewed").asBoolean()).isTrue();
        assertThat(shown.get("clockOffsetSeconds").asDouble()).isCloseTo(30.0, within(1.0));
        assertThat(node(steady.overview(), "node-1").get("clockSkewed").asBoolean())
                .isFalse();

        steady.reschedule(CrashLabJobs.TICKER, "* * * * * *");
        List<Tick> shared = await("six ticks while node-2 is skewed")
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(250))
                .until(this.lab::ticks, (ticks) -> ticks.size() >= 6);
        assertNothingEarlyNothingTwice(shared);
        assertThat(shared).extracting(Tick::nodeId).containsOnly("node-1");
        // none missing: every second between the first tick and the last
        long span = (shared.get(shared.size() - 1).scheduledMs() - shared.get(0).scheduledMs()) / 1000;
        assertThat(shared).hasSize((int) span + 1);

        Files.writeString(offsetFile, "+0s\n");
        JsonNode back = await("node-2 to measure its clock back within bounds")
                .atMost(Duration.ofSeconds(15))
                .pollInterval(Duration.ofMillis(250))
                .until(skewed::health, (now) -> !now.at("/details/clockSkewed").asBoolean(true));
        double measuredBack = back.at("/details/clockOffsetSeconds").asDouble();
        assertThat(measuredBack).isCloseTo(0.0, within(1.0));
        this.lab.stop(List.of(steady));
        List<Tick> all = await("node-2 to fire again")
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(250))
                .until(
                        this.lab::ticks,
                        (ticks) -> ticks.stream()
                                        .filter((tick) -> tick.nodeId().equals("node-2"))
                                        .count()
                                >= 3);
        assertNothingEarlyNothingTwice(all);
        logger.info(
                "[{}] the JVM of node-2 ran {} ms ahead; it measured {} s, then {} s with its clock set back;"
                        + " {} ticks, all on node-1, while it was skewed; {} ticks in all, {} of them on node-2 once back",
                kind(),
                jvmAhead.toMillis(),
                measured,
                measuredBack,
                shared.size(),
                all.size(),
                all.stream().filter((tick) -> tick.nodeId().equals("node-2")).count());
    }

    private static void assertNothingEarlyNothingTwice(List<Tick> ticks) {
        for (Tick tick : ticks) {
            assertThat(tick.ranMs()).as("%s ran before its time", tick).isGreaterThanOrEqualTo(tick.scheduledMs());
        }
        Map<Long, Long> bySchedule =
                ticks.stream().collect(Collectors.groupingBy(Tick::scheduledMs, Collectors.counting()));
        assertThat(bySchedule.values()).as("fires run twice").containsOnly(1L);
    }

    private static JsonNode node(JsonNode overview, String id) {
        for (JsonNode node : overview.get("nodes")) {
            if (node.get("id").asString().equals(id)) {
                return node;
            }
        }
        throw new AssertionError("No " + id + " in " + overview);
    }

    private static double offsetSeries(SampleNode node) {
        Matcher series = OFFSET_SERIES.matcher(node.prometheus());
        assertThat(series.find())
                .as("dsched_node_clock_offset_seconds in the scrape")
                .isTrue();
        return Double.parseDouble(series.group(1));
    }

    private static Path libfaketime() {
        Optional<Path> found = Stream.concat(
                        Stream.ofNullable(System.getenv("DSCHED_TEST_LIBFAKETIME")), LIBFAKETIME.stream())
                .map(Path::of)
                .filter(Files::isReadable)
                .findFirst();
        if (found.isEmpty()) {
            throw Prerequisites.missing("libfaketime is not installed (Debian: apt-get install libfaketime; or set"
                    + " DSCHED_TEST_LIBFAKETIME to its libfaketime.so.1)");
        }
        return found.get();
    }
}
