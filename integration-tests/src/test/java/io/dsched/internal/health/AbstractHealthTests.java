package io.dsched.internal.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dsched.internal.cluster.ClockSkew;
import io.dsched.internal.cluster.DatabaseClock;
import io.dsched.internal.cluster.NodeTable;
import io.dsched.internal.engine.DschedEngine;
import io.dsched.internal.store.ClusterTables;
import io.dsched.test.ClusterNode;
import io.dsched.test.TestCluster;
import io.dsched.test.TestDatabases;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@code dsched} health indicator on a running node, a stopped one, and one whose database
 * does not answer, read directly and over HTTP through Boot's health endpoint and readiness group.
 * Run against each database by a small subclass.
 */
abstract class AbstractHealthTests {

    private static final JsonMapper json = JsonMapper.builder().build();

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final String login = "dsched_node_" + UUID.randomUUID().toString().substring(0, 8);

    @RegisterExtension
    final TestCluster cluster = TestCluster.of(this::kind);

    private JdbcTemplate admin;

    private boolean loginCreated;

    protected abstract TestDatabases.Kind kind();

    /**
     * Returns a JDBC URL of the database's kind where no server listens.
     * @return the URL
     */
    protected abstract String unreachableUrl();

    /**
     * Prepares the database so that the test can cut one node off without cutting off its own
     * connections: where the database locks out by login, a login that may do anything on the test
     * database, for that node alone.
     * @param admin the test's own connections to the database
     * @param login the login's name
     * @param password the login's password
     * @return the properties the node starts with
     */
    protected abstract Map<String, Object> prepareCutOff(JdbcTemplate admin, String login, String password);

    /**
     * Cuts the node off: the database refuses its new connections and ends every one it holds, as
     * the outage tests end them. For the node, the database no longer answers.
     * @param admin the test's own connections to the database
     * @param login the login
     */
    protected abstract void cutOff(JdbcTemplate admin, String login);

    /**
     * Lets the node in again.
     * @param admin the test's own connections to the database
     * @param login the login
     * @param password the login's password
     */
    protected abstract void letIn(JdbcTemplate admin, String login, String password);

    /**
     * Drops the login and whatever it owns, once its node has stopped.
     * @param admin the test's own connections to the database
     * @param login the login
     */
    protected abstract void dropNodeLogin(JdbcTemplate admin, String login);

    /**
     * How a node on this database hears of the attempts other nodes submit, as its health says.
     * @return {@code off} where the database has no notices, which polling stands in for
     */
    protected String notices() {
        return "off";
    }

    @BeforeEach
    void connectAsAdmin() {
        this.admin = new JdbcTemplate(this.cluster.observer());
    }

    @AfterEach
    void stopNodesAndDropTheirLogin() {
        this.cluster.nodes().forEach(ClusterNode::close);
        if (this.loginCreated) {
            dropNodeLogin(this.admin, this.login);
        }
    }

    @Test
    void aRunningNodeIsUpWithTheClusterInItsDetailsAndDownOnceItsSchedulerStops() {
        ClusterNode node = this.cluster.start("node-1", NoJobs.class, Map.of());
        DschedHealthIndicator indicator = node.bean(DschedHealthIndicator.class);

        // UP, and hearing notices where the database has them, once its listener has probed them
        Health up = await().atMost(Duration.ofSeconds(10))
                .until(
                        () -> indicator.health(true),
                        (health) -> health.getStatus().equals(Status.UP)
                                && notices().equals(health.getDetails().get("notices")));
        assertThat(up.getDetails())
                .containsEntry("node", "node-1")
                .containsEntry("liveNodes", 1L)
                .containsEntry("runningAttempts", 0)
                .containsEntry("openDeadLetters", 0L)
                .containsKey("lastCheckIn");

        node.bean(DschedEngine.class).stop();
        Health down = indicator.health(true);
        assertThat(down.getStatus()).isEqualTo(Status.DOWN);
        assertThat(down.getDetails()).containsEntry("reason", "the scheduler of this node is not running");
    }

    @Test
    void aNodeWhoseDatabaseDoesNotAnswerIsDown() {
        DriverManagerDataSource unreachable = new DriverManagerDataSource(unreachableUrl(), "dsched", "dsched");
        DschedHealthIndicator indicator = new DschedHealthIndicator(
                "node-1",
                () -> true,
                new NodeTable(unreachable, this.cluster.platform(), ClusterTables.DEFAULT),
                Duration.ofSeconds(10),
                () -> 0,
                () -> 0L,
                new ClockSkew(new DatabaseClock(Clock.systemUTC()), Duration.ofSeconds(2), "node-1"),
                () -> "polling",
                (sightings) -> List.of());

        Health health = indicator.health(true);

        assertThat(health.getStatus()).isEqualTo(Status.DOWN);
        assertThat(health.getDetails()).containsKey("error");
    }

    @Test
    void overHttpANodeIsUpAndReadyUntilItsDatabaseStopsAnsweringThenDownAndUnreadyUntilItAnswersAgain() {
        String password = UUID.randomUUID().toString();
        // dropped after the test even if its creation fails half-way
        this.loginCreated = true;
        Map<String, Object> properties = new LinkedHashMap<>(prepareCutOff(this.admin, this.login, password));
        properties.put("management.endpoints.web.exposure.include", "health");
        properties.put("management.endpoint.health.show-details", "always");
        properties.put("management.endpoint.health.probes.enabled", "true");
        properties.put("management.endpoint.health.group.readiness.include", "readinessState,dsched");
        // Boot's own database indicator would turn the endpoint DOWN too: without it, the status
        // the endpoint answers is the dsched indicator's
        properties.put("management.health.db.enabled", "false");
        // a health check waits at most this long for a connection the database refuses
        properties.put("spring.datasource.hikari.connection-timeout", "1000");
        // without Spring Security the endpoint is open: this test is about health, not access
        ClusterNode node = this.cluster.startWeb(
                "node-1", NoJobs.class, properties, new FilteredClassLoader("org.springframework.security"));

        JsonNode up = awaitStatus(node, "/actuator/health", 200);
        JsonNode dsched = up.get("components").get("dsched");
        assertThat(up.get("status").asString()).isEqualTo("UP");
        assertThat(dsched.get("status").asString()).isEqualTo("UP");
        assertThat(dsched.get("details").get("node").asString()).isEqualTo("node-1");
        assertThat(dsched.get("details").get("liveNodes").asLong()).isEqualTo(1);
        assertThat(dsched.get("details").get("runningAttempts").asInt()).isZero();
        assertThat(dsched.get("details").get("openDeadLetters").asLong()).isZero();
        assertThat(dsched.get("details").has("lastCheckIn")).isTrue();
        JsonNode ready = awaitStatus(node, "/actuator/health/readiness", 200);
        assertThat(ready.get("components").get("dsched").get("status").asString())
                .isEqualTo("UP");

        cutOff(this.admin, this.login);

        JsonNode down = awaitStatus(node, "/actuator/health", 503);
        assertThat(down.get("status").asString()).isEqualTo("DOWN");
        assertThat(down.get("components").get("dsched").get("status").asString())
                .isEqualTo("DOWN");
        assertThat(down.get("components").get("dsched").get("details").has("error"))
                .isTrue();
        JsonNode unready = awaitStatus(node, "/actuator/health/readiness", 503);
        assertThat(unready.get("components").get("readinessState").get("status").asString())
                .isEqualTo("UP");
        assertThat(unready.get("components").get("dsched").get("status").asString())
                .isEqualTo("DOWN");

        letIn(this.admin, this.login, password);

        JsonNode back = awaitStatus(node, "/actuator/health", 200);
        assertThat(back.get("components").get("dsched").get("status").asString())
                .isEqualTo("UP");
        assertThat(back.get("components").get("dsched").get("details").has("lastCheckIn"))
                .isTrue();
        assertThat(awaitStatus(node, "/actuator/health/readiness", 200)
                        .get("status")
                        .asString())
                .isEqualTo("UP");
    }

    private JsonNode awaitStatus(ClusterNode node, String path, int status) {
        // a node whose database does not answer may answer late: a request that times out is asked again
        HttpResponse<String> response = await().atMost(Duration.ofSeconds(30))
                .ignoreExceptionsInstanceOf(IOException.class)
                .until(() -> get(node, path), (answer) -> answer.statusCode() == status);
        return json.readTree(response.body());
    }

    private HttpResponse<String> get(ClusterNode node, String path) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://localhost:" + node.port() + path))
                .timeout(Duration.ofSeconds(10))
                .GET()
                .build();
        return this.http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    /** An application with no job of its own: dsched's node alone. */
    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class NoJobs {}
}
