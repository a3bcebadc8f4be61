package io.dsched.internal.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import io.dsched.test.ClusterNode;
import io.dsched.test.TestCluster;
import io.dsched.test.TestDatabases;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code dsched.management.show-values} over real HTTP, behind Spring Security, on a real database:
 * one node per setting in one cluster, each read as a viewer, an operator, an admin and anonymously
 * (a one-off's payload, a runtime job's parameters, a failed execution's stack trace and log lines,
 * dead letters, the audit log and a write's answer); and keys that look secret masked in every view
 * and in {@code dsched_audit} whatever the setting. Run against each database by a small subclass.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractShowValuesTests {

    private TestCluster cluster;

    private ValuesFixture values;

    private EndpointClient never;

    private EndpointClient whenAuthorized;

    private EndpointClient always;

    protected abstract TestDatabases.Kind kind();

    @BeforeAll
    void startANodePerSetting() {
        this.cluster = TestCluster.on(kind());
        this.never = new EndpointClient(start("never").port());
        this.whenAuthorized = new EndpointClient(start("when-authorized").port());
        ClusterNode always = start("always");
        this.always = new EndpointClient(always.port());
        this.values =
                ValuesFixture.on(this.cluster, always, "viewer", List.of(this.never, this.whenAuthorized, this.always));
    }

    private ClusterNode start(String showValues) {
        return this.cluster.startWeb(
                showValues,
                ShowValuesApp.Secured.class,
                Map.of(
                        "management.endpoints.web.exposure.include",
                        "dsched",
                        "dsched.queue.poll-interval",
                        "100ms",
                        "dsched.history.cleanup-cron",
                        ManagementApp.NEVER,
                        "dsched.management.show-values",
                        showValues),
                null);
    }

    @AfterAll
    void stopNodesAndDropDatabase() {
        if (this.cluster != null) {
            this.cluster.close();
        }
    }

    @Test
    void whenAuthorizedOperatorsAndAdminsSeeValuesAndViewersSeeThemMasked() {
        ValuesFixture.assertWriteAnswer(
                this.whenAuthorized.post("/jobs/billing/params", "admin", ValuesFixture.paramsWrite()), true);
        this.values.assertSeenBy(this.whenAuthorized, "viewer", false);
        this.values.assertSeenBy(this.whenAuthorized, "operator", true);
        this.values.assertSeenBy(this.whenAuthorized, "admin", true);
        assertAnonymousIsRefused(this.whenAuthorized);
    }

    @Test
    void neverEveryoneSeesValuesMaskedAdminsToo() {
        ValuesFixture.assertWriteAnswer(
                this.never.post("/jobs/billing/params", "admin", ValuesFixture.paramsWrite()), false);
        for (String user : List.of("viewer", "operator", "admin")) {
            this.values.assertSeenBy(this.never, user, false);
        }
        assertAnonymousIsRefused(this.never);
    }

    @Test
    void alwaysEveryoneWhoMayReadSeesValuesViewersToo() {
        ValuesFixture.assertWriteAnswer(
                this.always.post("/jobs/billing/params", "admin", ValuesFixture.paramsWrite()), true);
        for (String user : List.of("viewer", "operator", "admin")) {
            this.values.assertSeenBy(this.always, user, true);
        }
        assertAnonymousIsRefused(this.always);
    }

    @Test
    void keysThatLookSecretNeverReachTheAuditTableAndTheStoredValuesAreLeftWhole() {
        ValuesFixture.assertWriteAnswer(
                this.always.post("/jobs/billing/params", "admin", ValuesFixture.paramsWrite()), true);
        JdbcTemplate sql = new JdbcTemplate(this.cluster.observer());
        List<Map<String, Object>> audited = sql.queryForList(
                "SELECT before_value, after_value FROM dsched_audit WHERE action = 'job.params' AND result = 200");
        assertThat(audited).isNotEmpty().allSatisfy((row) -> {
            for (Object value : row.values()) {
                assertThat((String) value)
                        .doesNotContain("s3cr3t")
                        .doesNotContain("hunter2")
                        .contains("\\\"apiKey\\\":\\\"******\\\"")
                        .contains("\\\"client-secret\\\":\\\"******\\\"")
                        .contains("\\\"note\\\":\\\"fine\\\"");
            }
        });
        // what the jobs run with is theirs: only what is shown and audited is sanitized
        assertThat(sql.queryForObject("SELECT params FROM dsched_job WHERE name = 'billing'", String.class))
                .contains("s3cr3t")
                .contains("hunter2");
        assertThat(sql.queryForList("SELECT payload FROM dsched_dead_letter", String.class))
                .hasSize(2)
                .allSatisfy((payload) -> assertThat(payload).contains("s3cr3t").contains("hunter2"));
    }

    @Test
    void parametersSavedBackAsReadMaskedKeepTheirStoredSecrets() {
        String masked = ValuesFixture.PARAMS
                .replace("s3cr3t", ValuesFixture.MASKED)
                .replace("hunter2", ValuesFixture.MASKED)
                .replace("\"note\":\"fine\"", "\"note\":\"edited\"");
        String body = "{\"params\":" + JsonMapper.builder().build().writeValueAsString(masked) + "}";
        assertThat(this.whenAuthorized
                        .post("/jobs/billing/params", "admin", body)
                        .status())
                .isEqualTo(200);
        JdbcTemplate sql = new JdbcTemplate(this.cluster.observer());
        assertThat(sql.queryForObject("SELECT params FROM dsched_job WHERE name = 'billing'", String.class))
                .contains("\"apiKey\":\"s3cr3t\"")
                .contains("\"client-secret\":\"hunter2\"")
                .contains("\"note\":\"edited\"")
                .doesNotContain(ValuesFixture.MASKED);
        // as it was, for the other tests of this cluster
        assertThat(this.whenAuthorized
                        .post("/jobs/billing/params", "admin", ValuesFixture.paramsWrite())
                        .status())
                .isEqualTo(200);
    }

    private static void assertAnonymousIsRefused(EndpointClient client) {
        for (String path : List.of("/jobs", "/jobs/billing", "/executions", "/dead-letters", "/audit")) {
            assertThat(client.get(path, null).status())
                    .as("anonymous GET %s", path)
                    .isEqualTo(401);
        }
    }
}
