package io.dsched.internal.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import io.dsched.internal.actuate.EndpointClient.Response;
import io.dsched.jobs.JobScheduler;
import io.dsched.test.ClusterNode;
import io.dsched.test.TestCluster;
import io.dsched.test.TestDatabases;
import java.util.List;
import java.util.Map;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The endpoint with its roles named by {@code dsched.management.*-role}: the configured names are
 * what a user needs, and the default names grant nothing.
 */
class CustomRolesEndpointTests {

    // a database of its own for each test, its nodes stopped and the database dropped after it
    @AutoClose
    private final TestCluster cluster = TestCluster.on(TestDatabases.Kind.H2);

    @Test
    void theConfiguredRoleNamesAreTheOnesNeeded() {
        // each level moves to the users of SecuredManagementApp one below it, and DSCHED_ADMIN to none
        ClusterNode node = this.cluster.startWeb(
                "node-1",
                SecuredManagementApp.class,
                Map.of(
                        "management.endpoints.web.exposure.include", "dsched",
                        "dsched.management.viewer-role", "SOMETHING_ELSE",
                        "dsched.management.operator-role", "DSCHED_VIEWER",
                        "dsched.management.admin-role", "DSCHED_OPERATOR"),
                null);
        EndpointClient client = new EndpointClient(node.port());

        assertThat(roles(client, "stranger")).containsExactly("viewer");
        assertThat(roles(client, "viewer")).containsExactly("viewer", "operator");
        assertThat(roles(client, "operator")).containsExactly("viewer", "operator", "admin");
        assertThat(roles(client, "admin")).isEmpty();

        assertThat(client.get("/jobs", "stranger").status()).isEqualTo(200);
        assertRefused(client.get("/jobs", "admin"), "This needs the role SOMETHING_ELSE");
        assertRefused(client.post("/jobs/report/pause", "admin", "{}"), "This needs the role DSCHED_VIEWER");
        assertRefused(client.post("/jobs/report/pause", "stranger", "{}"), "This needs the role DSCHED_VIEWER");
        assertThat(node.bean(JobScheduler.class).isPaused("report")).isFalse();
        assertThat(client.post("/jobs/report/pause", "viewer", "{}").status()).isEqualTo(200);
        assertThat(node.bean(JobScheduler.class).isPaused("report")).isTrue();

        String schedule = "{\"cron\":\"0 30 2 * * *\"}";
        assertRefused(client.post("/jobs/report/schedule", "viewer", schedule), "This needs the role DSCHED_OPERATOR");
        assertThat(client.post("/jobs/report/schedule", "operator", schedule).status())
                .isEqualTo(200);
        JsonNode report = client.get("/jobs/report", "stranger").body().get("job");
        assertThat(report.get("cron").asString()).isEqualTo("0 30 2 * * *");
    }

    private static List<String> roles(EndpointClient client, String user) {
        Response me = client.get("/me", user);
        assertThat(me.status()).isEqualTo(200);
        return StreamSupport.stream(me.body().get("roles").spliterator(), false)
                .map(JsonNode::asString)
                .toList();
    }

    private static void assertRefused(Response response, String message) {
        assertThat(response.status()).as(response.text()).isEqualTo(403);
        assertThat(response.body().get("message").asString()).isEqualTo(message);
    }
}
