package io.dsched.sample.crashlab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dsched.sample.order.OrderJobs;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.util.FileSystemUtils;
import tools.jackson.databind.JsonNode;

/**
 * The README's cluster on one machine, as it starts it: as many instances of the sample's jar as the
 * README starts, at once, from one directory, on the sample's default H2 file database, which the first
 * instance serves to the others through H2's auto-server. They form one cluster, each fire of
 * {@code settlePendingOrders} appears once, from one of their node ids, and once the instance that
 * serves the file is stopped, the other carries on. The sample expects as many nodes as the README starts.
 * A normal stop logs nothing at WARN or above: H2 must not close the database under dsched's own stop.
 */
@Timeout(value = 150, unit = TimeUnit.SECONDS)
class H2FileClusterIT {

    private static final Path DIRECTORY = Path.of("target", "h2-file-cluster");

    /** A line of Spring Boot's console format at WARN or ERROR. */
    private static final Pattern WARNING = Pattern.compile("^\\S+\\s+(WARN|ERROR) \\d+ ---");

    private List<SampleNode> nodes = List.of();

    @AfterEach
    void stopNodes() {
        this.nodes.forEach(SampleNode::destroy);
    }

    @Test
    void instancesStartedFromOneDirectoryFormOneClusterRunEachFireOnceAndCarryOnWhenOneStops() throws IOException {
        int instances = instancesTheReadmeStarts();
        assertThat(instances).isEqualTo(2);
        assertThat(sampleProperties().getProperty("dsched.metrics.expected-nodes"))
                .as("the sample's dsched.metrics.expected-nodes")
                .isEqualTo(String.valueOf(instances));
        FileSystemUtils.deleteRecursively(DIRECTORY);
        Files.createDirectories(DIRECTORY);
        Map<String, String> passwords = Map.of(
                "viewer", UUID.randomUUID().toString(),
                "operator", UUID.randomUUID().toString(),
                "admin", UUID.randomUUID().toString());
        this.nodes = IntStream.rangeClosed(1, instances)
                .mapToObj((n) -> new SampleNode(
                        "node-" + n, DIRECTORY.resolve("node-" + n + ".log"), List.of(), passwords, DIRECTORY))
                .toList();
        this.nodes.forEach(SampleNode::start);
        for (SampleNode node : this.nodes) {
            await(node + " to serve")
                    .atMost(Duration.ofSeconds(90))
                    .pollInterval(Duration.ofMillis(250))
                    .until(node::isReady);
        }
        Set<String> ids = this.nodes.stream().map(SampleNode::nodeId).collect(Collectors.toSet());
        for (SampleNode node : this.nodes) {
            JsonNode cluster = node.read("");
            assertThat(StreamSupport.stream(cluster.get("nodes").spliterator(), false)
                            .filter((member) -> member.get("alive").asBoolean())
                            .map((member) -> member.get("id").asString()))
                    .as("the live nodes %s sees", node)
                    .containsExactlyInAnyOrderElementsOf(ids);
        }

        // settlePendingOrders fires every five seconds
        SampleNode first = this.nodes.get(0);
        List<JsonNode> fires = await("three fires of " + OrderJobs.SETTLE_PENDING_ORDERS)
                .atMost(Duration.ofSeconds(30))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> scheduledRuns(first), (runs) -> runs.size() >= 3);
        assertEachFireOnceFromOneOf(fires, ids);

        assertStopsWithoutWarnings(first, first::signalStop);
        Instant stoppedAt = Instant.now();
        SampleNode other = this.nodes.get(1);
        // while the other takes over serving the file, its pooled connections to the stopped one's
        // H2 server fail and its endpoint answers 500 for a moment: the wait reads again
        List<JsonNode> after = await("two fires after " + first + " stopped")
                .atMost(Duration.ofSeconds(40))
                .pollInterval(Duration.ofMillis(500))
                .ignoreException(IllegalStateException.class)
                .until(
                        () -> scheduledRuns(other).stream()
                                .filter((run) -> Instant.parse(
                                                run.get("scheduledAt").asString())
                                        .isAfter(stoppedAt))
                                .toList(),
                        (runs) -> runs.size() >= 2);
        assertThat(after)
                .allSatisfy((run) -> assertThat(run.get("nodeId").asString()).isEqualTo(other.nodeId()));
        assertEachFireOnceFromOneOf(scheduledRuns(other), ids);

        // the one left now serves the file alone, as a single instance of the README does; its
        // pool's connections to the stopped one's server warned above, its stop must not
        // Ctrl-C's signal this time, twice, as an impatient hand gives it
        assertStopsWithoutWarnings(other, () -> {
            other.signal("INT");
            other.signal("INT");
        });
    }

    /** Stops the node with a signal; from then on it logs nothing at WARN or above. */
    private static void assertStopsWithoutWarnings(SampleNode node, Runnable stop) {
        int before = node.logLines().size();
        stop.run();
        node.awaitExit(Duration.ofSeconds(30));
        List<String> log = node.logLines();
        // the sample's flaky job fails a third of its attempts on purpose, and may as the node stops
        assertThat(log.subList(before, log.size()))
                .as("what %s logged at WARN or above once asked to stop", node)
                .noneMatch((line) ->
                        WARNING.matcher(line).find() && !line.contains("'" + OrderJobs.FLAKY_PARTNER_SYNC + "'"));
    }

    /** The succeeded attempts of scheduled fires of settlePendingOrders, newest first. */
    private static List<JsonNode> scheduledRuns(SampleNode node) {
        JsonNode page = node.read("/executions?job=" + OrderJobs.SETTLE_PENDING_ORDERS + "&size=200");
        return StreamSupport.stream(page.get("content").spliterator(), false)
                .filter((run) -> "SCHEDULE".equals(run.get("origin").asString()))
                .filter((run) -> "SUCCEEDED".equals(run.get("status").asString()))
                .toList();
    }

    private static void assertEachFireOnceFromOneOf(List<JsonNode> runs, Set<String> ids) {
        assertThat(runs.stream().map((run) -> run.get("scheduledAt").asString()))
                .as("fire times")
                .doesNotHaveDuplicates();
        assertThat(runs)
                .allSatisfy((run) -> assertThat(ids).contains(run.get("nodeId").asString()));
    }

    /** How many instances the README's cluster on one machine starts. */
    private static int instancesTheReadmeStarts() throws IOException {
        return (int) Files.readAllLines(Path.of("..", "README.md")).stream()
                .filter((line) -> line.matches("PORT=\\d+ java -jar sample-app/target/dsched-sample-app\\.jar &"))
                .count();
    }

    private static Properties sampleProperties() throws IOException {
        Properties properties = new Properties();
        try (InputStream in = H2FileClusterIT.class.getResourceAsStream("/application.properties")) {
            properties.load(in);
        }
        return properties;
    }
}
