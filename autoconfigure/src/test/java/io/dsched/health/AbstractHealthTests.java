package io.dsched.health;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dsched.cluster.NodeTable;
import io.dsched.engine.DschedEngine;
import io.dsched.test.ClusterNode;
import io.dsched.test.TestCluster;
import io.dsched.test.TestDatabases;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * The {@code dsched} health indicator on a running node, a stopped one, and one whose database
 * does not answer. Run against each database by a small subclass.
 */
abstract class AbstractHealthTests {

    private TestCluster cluster;

    protected abstract TestDatabases.Kind kind();

    /**
     * Returns a JDBC URL of the database's kind where no server listens.
     * @return the URL
     */
    protected abstract String unreachableUrl();

    @BeforeEach
    void createDatabase() {
        this.cluster = TestCluster.on(kind());
    }

    @AfterEach
    void stopNodesAndDropDatabase() {
        if (this.cluster != null) {
            this.cluster.close();
        }
    }

    @Test
    void aRunningNodeIsUpWithTheClusterInItsDetailsAndDownOnceItsSchedulerStops() {
        ClusterNode node = this.cluster.start("node-1", NoJobs.class, Map.of());
        DschedHealthIndicator indicator = node.bean(DschedHealthIndicator.class);

        Health up = await().atMost(Duration.ofSeconds(10))
                .until(() -> indicator.health(true), (health) -> health.getStatus()
                        .equals(Status.UP));
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
                new NodeTable(unreachable, this.cluster.platform()),
                Duration.ofSeconds(10),
                () -> 0,
                () -> 0L);

        Health health = indicator.health(true);

        assertThat(health.getStatus()).isEqualTo(Status.DOWN);
        assertThat(health.getDetails()).containsKey("error");
    }

    /** An application with no job of its own: dsched's node alone. */
    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class NoJobs {}
}
