package io.dsched.internal.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import io.dsched.internal.actuate.EndpointClient.Response;
import io.dsched.jobs.JobScheduler;
import io.dsched.test.ClusterNode;
import io.dsched.test.TestCluster;
import io.dsched.test.TestDatabases;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The endpoint in an application without Spring Security: reads are open to whoever reaches the
 * endpoint, and writes are not offered at all until the application turns them on.
 */
class UnsecuredEndpointTests {

    // a database of its own for each test, its nodes stopped and the database dropped after it
    @AutoClose
    private final TestCluster cluster = TestCluster.on(TestDatabases.Kind.H2);

    @Test
    void withoutSpringSecurityTheWriteOperationsAreNotExposed() {
        EndpointClient client = new EndpointClient(start("node-1", Map.of()).port());

        assertThat(client.get("/jobs", null).status()).isEqualTo(200);
        Response pause = client.post("/jobs/report/pause", null, "{}");
        assertThat(pause.status()).isIn(404, 405);
        Response replay = client.post("/dead-letters/replay", null, "{\"ids\":\"1\"}");
        assertThat(replay.status()).isIn(404, 405);

        assertThat(this.cluster.nodes().get(0).bean(JobScheduler.class).isPaused("report"))
                .isFalse();
        assertThat(new JdbcTemplate(this.cluster.observer())
                        .queryForObject("SELECT COUNT(*) FROM dsched_audit", Long.class))
                .isZero();
    }

    @Test
    void unsecuredWritesTurnedOnAreOpenAndAuditedAsAnonymous() {
        ClusterNode node = start("node-1", Map.of("dsched.management.unsecured-writes", "true"));
        EndpointClient client = new EndpointClient(node.port());

        assertThat(client.post("/jobs/report/pause", null, "{}").status()).isEqualTo(200);

        assertThat(node.bean(JobScheduler.class).isPaused("report")).isTrue();
        Map<String, Object> audit = new JdbcTemplate(this.cluster.observer())
                .queryForMap("SELECT actor, action, target, result FROM dsched_audit");
        assertThat(audit)
                .containsEntry("actor", "anonymous")
                .containsEntry("action", "job.pause")
                .containsEntry("target", "report");
    }

    private ClusterNode start(String id, Map<String, Object> properties) {
        Map<String, Object> all = new LinkedHashMap<>(properties);
        all.put("management.endpoints.web.exposure.include", "dsched");
        return this.cluster.startWeb(
                id, ManagementApp.class, all, new FilteredClassLoader("org.springframework.security"));
    }
}
