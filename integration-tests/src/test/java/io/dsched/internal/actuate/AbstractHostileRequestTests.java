package io.dsched.internal.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import io.dsched.definition.Schedule;
import io.dsched.internal.actuate.EndpointClient.Response;
import io.dsched.jobs.JobScheduler;
import io.dsched.jobs.RecurringJob;
import io.dsched.test.ClusterNode;
import io.dsched.test.TestCluster;
import io.dsched.test.TestDatabases;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Requests a hostile client sends the endpoint, over real HTTP on a real database: floods of
 * refused writes, schedules that never fire or overflow, out-of-range numbers and instants, and a
 * change of a runtime job whose trigger cannot be written. Run against each database by a small
 * subclass, which also supplies the statements that make the database refuse a trigger's write.
 */
abstract class AbstractHostileRequestTests {

    private static final String VICTIM = "victim";

    @RegisterExtension
    final TestCluster cluster = TestCluster.of(this::kind);

    private ClusterNode node;

    private EndpointClient client;

    private JdbcTemplate sql;

    protected abstract TestDatabases.Kind kind();

    /**
     * Makes the database refuse to store a Quartz trigger of the given name, as a failing disk or
     * a lost connection would refuse it.
     * @param sql the test database
     * @param triggerName the trigger
     */
    protected abstract void refuseTriggerWrites(JdbcTemplate sql, String triggerName);

    /**
     * Undoes {@link #refuseTriggerWrites}.
     * @param sql the test database
     */
    protected abstract void allowTriggerWrites(JdbcTemplate sql);

    @BeforeEach
    void startNode() {
        this.node = this.cluster.startWeb(
                "node-1",
                SecuredManagementApp.class,
                Map.of(
                        "management.endpoints.web.exposure.include",
                        "dsched",
                        "dsched.history.cleanup-cron",
                        ManagementApp.NEVER),
                null);
        this.client = new EndpointClient(this.node.port());
        this.sql = new JdbcTemplate(this.cluster.observer());
    }

    @Test
    void refusedWritesAreCountedWithoutFloodingTheAuditLog() {
        long before = auditRows();
        for (int i = 0; i < 300; i++) {
            Response refused = this.client.post("/jobs/report/pause", null, "{\"reason\":\"" + "r".repeat(900) + "\"}");
            assertThat(refused.status()).isEqualTo(401);
        }
        assertThat(auditRows()).as("rows written by 300 anonymous refusals").isEqualTo(before);
        assertThat(refusals("401")).isEqualTo(300);

        String longName = "n".repeat(EndpointParameters.MAX_NAME);
        for (int i = 0; i < 300; i++) {
            Response refused = this.client.post(
                    "/jobs/" + longName + "/pause", "stranger", "{\"reason\":\"" + "r".repeat(900) + "\"}");
            assertThat(refused.status()).isEqualTo(403);
        }
        // one row a minute: two if the loop crossed into the next minute
        List<Map<String, Object>> rows =
                this.sql.queryForList("SELECT actor, result, target, detail FROM dsched_audit ORDER BY id");
        assertThat(rows).hasSizeBetween(1, 2).allSatisfy((row) -> {
            assertThat(row.get("actor")).isEqualTo("stranger");
            assertThat(((Number) row.get("result")).intValue()).isEqualTo(403);
            assertThat((String) row.get("target")).hasSizeLessThanOrEqualTo(200);
            assertThat((String) row.get("detail")).hasSizeLessThanOrEqualTo(200);
        });
        assertThat(refusals("403")).isEqualTo(300);
        assertThat(this.node.bean(JobScheduler.class).isPaused("report")).isFalse();
    }

    @Test
    void aScheduleThatNeverFiresIsRefusedWithTheReasonAndChangesNothing() {
        JobScheduler scheduler = this.node.bean(JobScheduler.class);
        scheduler.create(RecurringJob.of(
                "newsletter", "mailer", new Schedule.Cron(ManagementApp.NEVER, null), new ManagementApp.Mail("a@b.c")));
        String declared = scheduler.scheduleOf("report");
        String runtime = scheduler.scheduleOf("newsletter");
        long audited = auditRows();

        for (String job : List.of("report", "newsletter")) {
            Response refused = this.client.post(
                    "/jobs/" + job + "/schedule", "admin", "{\"cron\":\"0 0 0 30 2 *\",\"zone\":\"UTC\"}");
            assertThat(refused.status()).as(refused.text()).isEqualTo(400);
            assertThat(refused.body().get("field").asString()).isEqualTo("cron");
            assertThat(refused.body().get("message").asString()).contains("'0 0 0 30 2 *' never fires");
        }
        Response preview = this.client.get("/schedule-preview?cron=0%200%200%2030%202%20*", "viewer");
        assertThat(preview.status()).as(preview.text()).isEqualTo(400);
        assertThat(preview.body().get("message").asString()).contains("never fires");

        assertThat(scheduler.scheduleOf("report")).isEqualTo(declared);
        assertThat(scheduler.scheduleOf("newsletter")).isEqualTo(runtime);
        assertThat(auditRows()).isEqualTo(audited + 2);
    }

    @Test
    void numbersAndInstantsOutOfRangeAreRefusedBeforeAnyArithmetic() {
        for (String fixedRate : List.of("P9999999999999D", "PT99999999999999999999H", "9999999999999999d", "367d")) {
            Response refused =
                    this.client.post("/jobs/report/schedule", "admin", "{\"fixedRate\":\"" + fixedRate + "\"}");
            assertThat(refused.status()).as(fixedRate + ": " + refused.text()).isEqualTo(400);
            assertThat(refused.body().get("field").asString()).isEqualTo("fixedRate");
        }
        for (String query : List.of(
                "/dead-letters?from=%2B1000000000-01-01T00:00:00Z",
                "/dead-letters?to=-1000000000-01-01T00:00:00Z",
                "/jobs?window=P9999999999999D",
                "/jobs?window=99999999999999999999d",
                "/timeline?window=P2D",
                "/executions?size=99999999999",
                "/executions?page=-1")) {
            Response refused = this.client.get(query, "viewer");
            assertThat(refused.status()).as(query + ": " + refused.text()).isEqualTo(400);
        }
        assertThat(this.node.bean(JobScheduler.class).scheduleOf("report")).startsWith("cron(");
    }

    @Test
    void aWriteRefusedForBadInputEchoesNoValueOfItsInputInTheAnswerOrTheAudit() {
        this.node
                .bean(JobScheduler.class)
                .create(RecurringJob.of(
                        "newsletter",
                        "mailer",
                        new Schedule.Cron(ManagementApp.NEVER, null),
                        new ManagementApp.Mail("a@b.c")));
        String body = "{\"params\":\"{\\\"apiKey\\\": hunter2xyz}\"}";

        Response refused = this.client.post("/jobs/newsletter/params", "admin", body);

        assertThat(refused.status()).as(refused.text()).isEqualTo(400);
        assertThat(refused.body().get("message").asString())
                .startsWith("params is not valid JSON (line 1")
                .doesNotContain("hunter2xyz");
        assertThat(this.sql.queryForList("SELECT detail FROM dsched_audit", String.class))
                .singleElement()
                .satisfies((detail) -> assertThat(detail).doesNotContain("hunter2xyz"));
        assertThat(this.client.get("/audit", "viewer").text()).doesNotContain("hunter2xyz");
    }

    @Test
    void aRuntimeJobsStoredScheduleAndTriggerChangeTogetherOrNotAtAll() {
        JobScheduler scheduler = this.node.bean(JobScheduler.class);
        scheduler.create(RecurringJob.of(
                VICTIM, "mailer", new Schedule.Cron(ManagementApp.NEVER, null), new ManagementApp.Mail("a@b.c")));
        String stored = storedCron();
        String fired = triggerCron();
        assertThat(stored).isEqualTo(ManagementApp.NEVER);
        assertThat(fired).isEqualTo(ManagementApp.NEVER);

        refuseTriggerWrites(this.sql, VICTIM);
        try {
            Response failed = this.client.post(
                    "/jobs/" + VICTIM + "/schedule", "admin", "{\"cron\":\"0 0 3 * * *\",\"zone\":\"UTC\"}");
            assertThat(failed.status()).as(failed.text()).isEqualTo(500);
            assertThat(storedCron()).isEqualTo(stored);
            assertThat(triggerCron()).isEqualTo(fired);
            assertThat(scheduler.scheduleOf(VICTIM)).contains(ManagementApp.NEVER);
        } finally {
            allowTriggerWrites(this.sql);
        }

        Response changed = this.client.post(
                "/jobs/" + VICTIM + "/schedule", "admin", "{\"cron\":\"0 0 3 * * *\",\"zone\":\"UTC\"}");
        assertThat(changed.status()).as(changed.text()).isEqualTo(200);
        assertThat(storedCron()).isEqualTo("0 0 3 * * *");
        assertThat(triggerCron()).isEqualTo("0 0 3 * * *");
    }

    @Test
    void aChangeOfARuntimeJobWaitsForAnotherChangeOfItAndStartsFromWhatThatOneWrote() throws Exception {
        JobScheduler scheduler = this.node.bean(JobScheduler.class);
        scheduler.create(RecurringJob.of(
                VICTIM, "mailer", new Schedule.Cron(ManagementApp.NEVER, null), new ManagementApp.Mail("a@b.c")));
        try (java.sql.Connection other = this.cluster.observer().getConnection()) {
            // another node's change, between its read of the row and its commit
            other.setAutoCommit(false);
            try (java.sql.PreparedStatement lock =
                    other.prepareStatement("SELECT name FROM dsched_job WHERE name = ? FOR UPDATE")) {
                lock.setString(1, VICTIM);
                lock.executeQuery().close();
            }
            try (java.sql.PreparedStatement write =
                    other.prepareStatement("UPDATE dsched_job SET params = ? WHERE name = ?")) {
                write.setString(1, "{\"to\":\"written@elsewhere\"}");
                write.setString(2, VICTIM);
                write.executeUpdate();
            }
            java.util.concurrent.CompletableFuture<Void> reschedule = java.util.concurrent.CompletableFuture.runAsync(
                    () -> scheduler.reschedule(VICTIM, new Schedule.Cron("0 0 3 * * *", java.time.ZoneOffset.UTC)));
            org.awaitility.Awaitility.await()
                    .during(java.time.Duration.ofSeconds(1))
                    .atMost(java.time.Duration.ofSeconds(2))
                    .until(() -> !reschedule.isDone());
            other.commit();
            reschedule.get(10, java.util.concurrent.TimeUnit.SECONDS);
        }
        assertThat(storedCron()).isEqualTo("0 0 3 * * *");
        assertThat(triggerCron()).isEqualTo("0 0 3 * * *");
        // the other change is kept, not overwritten with what was read before it
        assertThat(this.sql.queryForObject("SELECT params FROM dsched_job WHERE name = ?", String.class, VICTIM))
                .contains("written@elsewhere");
    }

    private String storedCron() {
        return this.sql.queryForObject("SELECT cron FROM dsched_job WHERE name = ?", String.class, VICTIM);
    }

    /** The cron of the trigger Quartz fires the job by, read from the node's scheduler. */
    private String triggerCron() {
        try {
            org.quartz.Trigger trigger = this.node
                    .bean(io.dsched.internal.engine.DschedEngine.class)
                    .scheduler()
                    .getTrigger(org.quartz.TriggerKey.triggerKey(VICTIM, io.dsched.internal.jobs.RuntimeJobs.GROUP));
            return ((io.dsched.quartz.SpringCronTrigger) trigger).getExpression();
        } catch (org.quartz.SchedulerException ex) {
            throw new IllegalStateException(ex);
        }
    }

    private long auditRows() {
        return this.sql.queryForObject("SELECT COUNT(*) FROM dsched_audit", Long.class);
    }

    private double refusals(String status) {
        return this.node
                .bean(MeterRegistry.class)
                .get("dsched.management.refusals")
                .tag("status", status)
                .counter()
                .count();
    }
}
