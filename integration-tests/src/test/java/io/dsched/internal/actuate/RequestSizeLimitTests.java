package io.dsched.internal.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import io.dsched.internal.actuate.EndpointClient.Response;
import io.dsched.jobs.JobScheduler;
import io.dsched.test.ClusterNode;
import io.dsched.test.TestCluster;
import io.dsched.test.TestDatabases;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.Test;

/**
 * A body larger than the endpoint reads is refused before anything parses it, whether it declares
 * its length or comes in chunks, on the application's port and on a management port of its own; a
 * body within the limit reaches the endpoint, in chunks too.
 */
class RequestSizeLimitTests {

    // a database of its own for each test, its nodes stopped and the database dropped after it
    @AutoClose
    private final TestCluster cluster = TestCluster.on(TestDatabases.Kind.H2);

    @Test
    void aBodyOverTheLimitIsRefusedAndChangesNothing() {
        ClusterNode node = this.cluster.startWeb(
                "node-1",
                SecuredManagementApp.class,
                Map.of("management.endpoints.web.exposure.include", "dsched"),
                null);
        assertRefusedOverTheLimit(node, new EndpointClient(node.port()));
    }

    @Test
    void onAManagementPortOfItsOwnTheLimitHoldsToo() {
        ClusterNode node = this.cluster.startWeb(
                "node-1",
                SecuredManagementApp.class,
                Map.of("management.endpoints.web.exposure.include", "dsched", "management.server.port", "0"),
                null);
        int management = node.bean(org.springframework.core.env.Environment.class)
                .getRequiredProperty("local.management.port", Integer.class);
        assertThat(management).isNotEqualTo(node.port());
        assertRefusedOverTheLimit(node, new EndpointClient(management));
    }

    @Test
    void everySpellingOfTheEndpointsPathIsLimited() {
        ClusterNode node = this.cluster.startWeb(
                "node-1",
                SecuredManagementApp.class,
                Map.of("management.endpoints.web.exposure.include", "dsched"),
                null);
        EndpointClient client = new EndpointClient(node.port());
        String tooLarge = "{\"reason\":\"" + "x".repeat(RequestSizeLimit.MAX_BODY) + "\"}";
        for (String path : List.of(
                "/%61ctuator/dsched/jobs/report/pause",
                "/actuator/%64sched/jobs/report/pause",
                "/%2561ctuator/dsched/jobs/report/pause",
                "/actuator;x=1/dsched;y=2/jobs/report/pause",
                "//actuator//dsched/jobs/report/pause",
                "/actuator/./dsched/jobs/report/pause",
                "/other/../actuator/dsched/jobs/report/pause",
                "/ACTUATOR/DSCHED/jobs/report/pause",
                "/Actuator/Dsched/jobs/report/pause")) {
            Response refused = client.postRaw(path, "operator", tooLarge);
            assertThat(refused.status()).as(path + ": " + refused.text()).isEqualTo(413);
            assertThat(refused.body().get("message").asString())
                    .as(path)
                    .contains("at most " + RequestSizeLimit.MAX_BODY);
        }
        // an encoded slash never gets as far as a filter: the container refuses it unread
        Response slash = client.postRaw("/actuator%2Fdsched/jobs/report/pause", "operator", tooLarge);
        assertThat(slash.status()).as(slash.text()).isIn(400, 413);
        assertThat(node.bean(JobScheduler.class).isPaused("report")).isFalse();
        // a path that only looks alike is not the endpoint's: its body is the application's business
        Response elsewhere = client.postRaw("/actuator/dsched-ui/x", "operator", tooLarge);
        assertThat(elsewhere.status()).as(elsewhere.text()).isNotEqualTo(413);
    }

    private static void assertRefusedOverTheLimit(ClusterNode node, EndpointClient client) {
        String tooLarge = "{\"reason\":\"" + "x".repeat(RequestSizeLimit.MAX_BODY) + "\"}";
        Response refused = client.post("/jobs/report/pause", "operator", tooLarge);
        assertThat(refused.status()).as(refused.text()).isEqualTo(413);
        assertThat(refused.body().get("message").asString()).contains("at most " + RequestSizeLimit.MAX_BODY);

        // sent in chunks, with no length declared: read up to the limit, and refused past it
        Response unsized = client.postChunked("/jobs/report/pause", "operator", tooLarge);
        assertThat(unsized.status()).as(unsized.text()).isEqualTo(413);
        assertThat(unsized.body().get("message").asString()).contains("more than " + RequestSizeLimit.MAX_BODY);
        assertThat(node.bean(JobScheduler.class).isPaused("report")).isFalse();

        // within the limit the endpoint reads it, and its own limit on the field answers
        String longReason = "{\"reason\":\"" + "x".repeat(EndpointParameters.MAX_REASON + 1) + "\"}";
        Response tooLong = client.post("/jobs/report/pause", "operator", longReason);
        assertThat(tooLong.status()).as(tooLong.text()).isEqualTo(400);
        assertThat(tooLong.body().get("field").asString()).isEqualTo("reason");
        Response chunkedTooLong = client.postChunked("/jobs/report/pause", "operator", longReason);
        assertThat(chunkedTooLong.status()).as(chunkedTooLong.text()).isEqualTo(400);
        assertThat(chunkedTooLong.body().get("field").asString()).isEqualTo("reason");
        Response paused = client.postChunked("/jobs/report/pause", "operator", "{\"reason\":\"in chunks\"}");
        assertThat(paused.status()).as(paused.text()).isEqualTo(200);
        assertThat(node.bean(JobScheduler.class).isPaused("report")).isTrue();
    }
}
