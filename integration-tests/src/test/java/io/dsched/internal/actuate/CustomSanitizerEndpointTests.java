package io.dsched.internal.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import io.dsched.actuate.ValueSanitizer;
import io.dsched.internal.actuate.EndpointClient.Response;
import io.dsched.test.ClusterNode;
import io.dsched.test.TestCluster;
import io.dsched.test.TestDatabases;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * A {@link ValueSanitizer} bean of the application's own: it replaces the default, which masks
 * keys that look secret, in every view and in the audit log.
 */
class CustomSanitizerEndpointTests {

    private static final JsonMapper json = JsonMapper.builder().build();

    // a database of its own for each test, its nodes stopped and the database dropped after it
    @AutoClose
    private final TestCluster cluster = TestCluster.on(TestDatabases.Kind.H2);

    @Test
    void theApplicationsSanitizerReplacesTheDefaultInTheViewsAndTheAudit() {
        ClusterNode node = this.cluster.startWeb(
                "node-1",
                ShowValuesApp.WithSanitizer.class,
                Map.of(
                        "management.endpoints.web.exposure.include", "dsched",
                        "dsched.queue.poll-interval", "100ms"),
                null);
        assertThat(node.bean(ValueSanitizer.class)).isNotInstanceOf(SecretKeySanitizer.class);
        EndpointClient client = new EndpointClient(node.port());
        ValuesFixture values = ValuesFixture.on(this.cluster, node, "admin", List.of(client));

        Response answer = client.post("/jobs/billing/params", "admin", ValuesFixture.paramsWrite());
        assertThat(answer.status()).as(answer.text()).isEqualTo(200);
        assertSanitizedByTheApplication(answer.body().get("after").get("params"));
        String audited = new JdbcTemplate(this.cluster.observer())
                .queryForObject("SELECT after_value FROM dsched_audit WHERE action = 'job.params'", String.class);
        assertSanitizedByTheApplication(json.readTree(audited).get("params"));
        assertSanitizedByTheApplication(job(client.get("/jobs", "admin").body()).get("params"));
        JsonNode execution =
                client.get("/executions/" + values.oneOffRun, "admin").body();
        assertSanitizedByTheApplication(execution.get("execution").get("payload"));
        assertSanitizedByTheApplication(execution.get("deadLetter").get("payload"));
    }

    private static void assertSanitizedByTheApplication(JsonNode value) {
        JsonNode shown = json.readTree(value.asString());
        assertThat(shown.get("note").asString()).isEqualTo(ShowValuesApp.REDACTED);
        assertThat(shown.get("apiKey").asString()).isEqualTo("s3cr3t");
    }

    private static JsonNode job(JsonNode jobs) {
        for (JsonNode job : jobs) {
            if ("billing".equals(job.get("name").asString())) {
                return job;
            }
        }
        throw new AssertionError("No billing in " + jobs);
    }
}
