package io.dsched.internal.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dsched.definition.Schedule;
import io.dsched.internal.actuate.EndpointClient.Response;
import io.dsched.jobs.JobScheduler;
import io.dsched.jobs.OneOff;
import io.dsched.jobs.RecurringJob;
import io.dsched.test.ClusterNode;
import io.dsched.test.TestCluster;
import io.dsched.test.TestDatabases;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@code dsched} endpoint over real HTTP, behind Spring Security, on a real database: every
 * read, every write with each role, the audit row of every write, and each error. Run against
 * each database by a small subclass.
 */
abstract class AbstractManagementEndpointTests {

    @RegisterExtension
    final TestCluster cluster = TestCluster.of(this::kind);

    private ClusterNode node;

    private EndpointClient client;

    private JdbcTemplate sql;

    protected abstract TestDatabases.Kind kind();

    @BeforeEach
    void startNode() {
        this.node = this.cluster.startWeb(
                "node-1",
                SecuredManagementApp.class,
                Map.of(
                        "management.endpoints.web.exposure.include",
                        "dsched",
                        "dsched.queue.poll-interval",
                        "100ms",
                        // housekeeping, every 10 minutes by default, stays out of the counts the tests assert
                        "dsched.history.cleanup-cron",
                        ManagementApp.NEVER),
                null);
        this.client = new EndpointClient(this.node.port());
        this.sql = new JdbcTemplate(this.cluster.observer());
    }

    @Test
    void aViewerReadsTheClusterItsJobsTheirExecutionsDeadLettersAndTheAuditLog() {
        Response overview = this.client.get("", "viewer");
        assertThat(overview.status()).isEqualTo(200);
        assertThat(overview.body().get("node").asString()).isEqualTo("node-1");
        JsonNode self = overview.body().get("nodes").get(0);
        assertThat(self.get("id").asString()).isEqualTo("node-1");
        assertThat(self.get("alive").asBoolean()).isTrue();
        assertThat(self.get("self").asBoolean()).isTrue();
        assertThat(overview.body().get("jobs").asInt()).isEqualTo(5);

        assertThat(job(this.client.get("/jobs", "viewer"), "dsched.housekeeping")
                        .get("kind")
                        .asString())
                .isEqualTo("declared");
        JsonNode report = job(this.client.get("/jobs", "viewer"), "report");
        assertThat(report.get("kind").asString()).isEqualTo("declared");
        assertThat(report.get("cron").asString()).isEqualTo(ManagementApp.NEVER);
        assertThat(report.get("zone").asString()).isEqualTo("Europe/Berlin");
        assertThat(report.get("schedule").asString()).isEqualTo("cron(0 0 0 1 1 *, Europe/Berlin)");
        assertThat(report.get("nextFireAt").asString()).endsWith("Z");
        assertThat(report.get("paused").asBoolean()).isFalse();

        Response triggered = this.client.post("/jobs/doomed/trigger", "operator", "{}");
        assertThat(triggered.status()).isEqualTo(200);
        long executionId = triggered.body().get("after").get("executionId").asLong();
        await().atMost(Duration.ofSeconds(30))
                .until(() -> this.client
                                .get("/dead-letters?job=doomed&status=open", "viewer")
                                .body()
                                .get("total")
                                .asLong()
                        == 1);

        // stack traces and log lines are shown to an operator, and masked for a viewer (AbstractShowValuesTests)
        JsonNode execution =
                this.client.get("/executions/" + executionId, "operator").body();
        assertThat(execution.get("execution").get("status").asString()).isEqualTo("DEAD_LETTERED");
        assertThat(execution.get("execution").get("origin").asString()).isEqualTo("MANUAL");
        assertThat(execution.get("attempts")).hasSize(1);
        assertThat(execution.get("deadLetter").get("stackTrace").asString())
                .contains("java.lang.IllegalStateException: partner <script>alert(1)</script> is down")
                .contains("at io.dsched.internal.actuate.ManagementApp$Jobs.doomed");
        JsonNode log = execution.get("log");
        assertThat(log.get("stackTrace").asString()).contains("partner <script>alert(1)</script> is down");
        assertThat(StreamSupport.stream(log.get("lines").spliterator(), false).map(JsonNode::asString))
                .anySatisfy((line) -> assertThat(line).contains("ERROR").contains("Dead-lettering 'doomed'"));

        JsonNode doomed =
                this.client.get("/jobs/doomed?status=dead_lettered", "viewer").body();
        assertThat(doomed.get("job").get("lastRun").get("status").asString()).isEqualTo("DEAD_LETTERED");
        assertThat(doomed.get("job").get("stats").get("runs").asLong()).isEqualTo(1);
        assertThat(doomed.get("job").get("stats").get("failed").asLong()).isEqualTo(1);
        assertThat(doomed.get("job").get("stats").get("successRate").asDouble()).isEqualTo(0.0);
        assertThat(doomed.get("job").get("stats").get("p95").isNull()).isFalse();
        assertThat(doomed.get("executions").get("total").asLong()).isEqualTo(1);
        assertThat(doomed.get("executions").get("content").get(0).get("id").asLong())
                .isEqualTo(executionId);
        assertThat(this.client
                        .get("/jobs/doomed?status=succeeded", "viewer")
                        .body()
                        .get("executions")
                        .get("total")
                        .asLong())
                .isZero();

        JsonNode letters = this.client.get("/dead-letters?job=doomed", "viewer").body();
        long letterId = letters.get("content").get(0).get("id").asLong();
        JsonNode letter = this.client.get("/dead-letters/" + letterId, "viewer").body();
        assertThat(letter.get("executionId").asLong()).isEqualTo(executionId);
        // an exception's message may quote a value: a viewer sees it masked, as the stack trace
        assertThat(letter.get("errorMessage").asString()).isEqualTo("******");
        assertThat(this.client
                        .get("/dead-letters/" + letterId, "operator")
                        .body()
                        .get("errorMessage")
                        .asString())
                .isEqualTo("partner <script>alert(1)</script> is down");

        assertThat(this.client
                        .get("/executions?job=doomed", "viewer")
                        .body()
                        .get("total")
                        .asLong())
                .isEqualTo(1);
        JsonNode audit =
                this.client.get("/audit", "viewer").body().get("content").get(0);
        assertThat(audit.get("actor").asString()).isEqualTo("operator");
        assertThat(audit.get("action").asString()).isEqualTo("job.trigger");
        assertThat(audit.get("target").asString()).isEqualTo("doomed");
        assertThat(audit.get("result").asInt()).isEqualTo(200);

        assertThat(this.client.get("", null).status()).isEqualTo(401);
        assertThat(this.client.get("/jobs", "stranger").status()).isEqualTo(403);
    }

    @Test
    void theOverviewCountsWhatRunsWaitsAndFailedAndTheListsPageAndFilter() {
        List<Long> letters = deadLetters(2);
        JobScheduler scheduler = this.node.bean(JobScheduler.class);
        scheduler.submit(OneOff.of("mailer", new ManagementApp.Mail("a@b.c")).after(Duration.ofHours(1)));
        scheduler.submit(OneOff.of("holder", null));
        JsonNode overview = await().atMost(Duration.ofSeconds(30))
                .until(
                        () -> this.client.get("", "viewer").body(),
                        (body) -> body.get("running").asLong() == 1);
        assertThat(overview.get("waiting").asLong()).isEqualTo(1);
        assertThat(overview.get("deadLetterBacklog").asLong()).isEqualTo(2);
        assertThat(overview.get("window").asString()).isEqualTo("PT1H");
        assertThat(overview.get("counts").get("DEAD_LETTERED").asLong()).isEqualTo(2);
        assertThat(overview.get("counts").get("RUNNING").asLong()).isEqualTo(1);
        // the one-off due in an hour waits: it is not among the attempts that started
        assertThat(overview.get("counts").has("SCHEDULED")).isFalse();
        JsonNode self = overview.get("nodes").get(0);
        Instant lastSeen = Instant.parse(self.get("lastSeen").asString());
        assertThat(lastSeen)
                .isAfterOrEqualTo(Instant.parse(self.get("startedAt").asString()))
                .isBetween(Instant.now().minusSeconds(15), Instant.now().plusSeconds(5));

        this.node.bean(ManagementApp.Jobs.class).release();
        overview = await().atMost(Duration.ofSeconds(30))
                .until(
                        () -> this.client.get("", "viewer").body(),
                        (body) -> body.get("running").asLong() == 0);
        assertThat(overview.get("waiting").asLong()).isEqualTo(1);
        assertThat(overview.get("counts").get("SUCCEEDED").asLong()).isEqualTo(1);
        assertThat(overview.get("counts").get("DEAD_LETTERED").asLong()).isEqualTo(2);

        long older = Math.min(executionOf(letters.get(0)), executionOf(letters.get(1)));
        JsonNode secondPage = this.client
                .get("/executions?job=doomed&size=1&page=1", "viewer")
                .body();
        assertThat(secondPage.get("page").asInt()).isEqualTo(1);
        assertThat(secondPage.get("size").asInt()).isEqualTo(1);
        assertThat(secondPage.get("total").asLong()).isEqualTo(2);
        assertThat(secondPage.get("content")).hasSize(1);
        assertThat(secondPage.get("content").get(0).get("id").asLong()).isEqualTo(older);
        assertThat(this.client
                        .get("/executions?job=doomed&size=1&page=2", "viewer")
                        .body()
                        .get("content"))
                .isEmpty();

        long letter = letters.get(0);
        Instant failed = Instant.parse(this.client
                .get("/dead-letters/" + letter, "viewer")
                .body()
                .get("lastFailedAt")
                .asString());
        assertThat(letterIds("?from=" + failed + "&to=" + failed.plusMillis(1))).contains(letter);
        assertThat(letterIds("?job=doomed&from=" + failed.minusSeconds(60))).containsAll(letters);
        assertThat(letterIds("?from=" + failed.plusMillis(1))).doesNotContain(letter);
        assertThat(letterIds("?to=" + failed)).doesNotContain(letter);
        assertThat(letterIds("?from=2000-01-01T00:00:00Z&to=2000-01-02T00:00:00Z"))
                .isEmpty();

        assertThat(this.client.post("/jobs/report/pause", "operator", "{}").status())
                .isEqualTo(200);
        assertThat(this.client.post("/jobs/report/resume", "admin", "{}").status())
                .isEqualTo(200);
        assertThat(this.client.post("/jobs/report/pause", "viewer", "{}").status())
                .isEqualTo(403);
        assertThat(this.client.get("/audit", "viewer").body().get("total").asLong())
                .isEqualTo(3);
        JsonNode byOperator = this.client.get("/audit?actor=operator", "viewer").body();
        assertThat(byOperator.get("total").asLong()).isEqualTo(1);
        assertThat(byOperator.get("content").get(0).get("actor").asString()).isEqualTo("operator");
        assertThat(byOperator.get("content").get(0).get("action").asString()).isEqualTo("job.pause");
        JsonNode byViewer = this.client.get("/audit?actor=viewer", "viewer").body();
        assertThat(byViewer.get("total").asLong()).isEqualTo(1);
        assertThat(byViewer.get("content").get(0).get("result").asInt()).isEqualTo(403);
        assertThat(this.client
                        .get("/audit?actor=nobody", "viewer")
                        .body()
                        .get("total")
                        .asLong())
                .isZero();
    }

    @Test
    void everyWriteNeedsItsRoleAndEveryAttemptIsAudited() {
        createNewsletter();
        List<Long> letters = deadLetters(6);
        int expectedAudit = 0;

        expectedAudit += refusedBelow("/jobs/report/pause", "{}", "operator");
        assertThat(this.client
                        .get("/jobs/report", "viewer")
                        .body()
                        .get("job")
                        .get("paused")
                        .asBoolean())
                .isFalse();
        Response pause = this.client.post("/jobs/report/pause", "operator", "{\"reason\":\"maintenance\"}");
        expectedAudit++;
        assertThat(pause.status()).isEqualTo(200);
        assertThat(this.client
                        .get("/jobs/report", "viewer")
                        .body()
                        .get("job")
                        .get("paused")
                        .asBoolean())
                .isTrue();
        assertLatestAudit("operator", "job.pause", "report", "{\"paused\":false}", "{\"paused\":true}", 200);
        assertThat(latestAudit().get("reason")).isEqualTo("maintenance");

        expectedAudit += refusedBelow("/jobs/report/resume", "{}", "operator");
        assertThat(this.client.post("/jobs/report/resume", "admin", "{}").status())
                .isEqualTo(200);
        expectedAudit++;
        assertLatestAudit("admin", "job.resume", "report", "{\"paused\":true}", "{\"paused\":false}", 200);

        expectedAudit += refusedBelow("/jobs/report/trigger", "{}", "operator");
        Response plainTrigger = this.client.post("/jobs/report/trigger", "operator", "{}");
        expectedAudit++;
        assertThat(plainTrigger.status()).isEqualTo(200);
        assertTriggerAudited("operator", "report", plainTrigger);

        expectedAudit += refusedBelow("/jobs/newsletter/trigger", params("{\"to\":\"x@y.z\"}"), "admin");
        Response trigger = this.client.post("/jobs/newsletter/trigger", "admin", params("{\"to\":\"x@y.z\"}"));
        expectedAudit++;
        assertThat(trigger.status()).isEqualTo(200);
        assertTriggerAudited("admin", "newsletter", trigger);
        long run = trigger.body().get("after").get("executionId").asLong();
        await().atMost(Duration.ofSeconds(30)).until(() -> "SUCCEEDED"
                .equals(this.client
                        .get("/executions/" + run, "viewer")
                        .body()
                        .get("execution")
                        .get("status")
                        .asString()));
        assertThat(this.client
                        .get("/executions/" + run, "operator")
                        .body()
                        .get("execution")
                        .get("payload")
                        .asString())
                .isEqualTo("{\"to\":\"x@y.z\"}");

        String schedule = "{\"cron\":\"0 30 2 * * *\",\"zone\":\"UTC\"}";
        expectedAudit += refusedBelow("/jobs/report/schedule", schedule, "admin");
        assertThat(this.client.post("/jobs/report/schedule", "admin", schedule).status())
                .isEqualTo(200);
        expectedAudit++;
        JsonNode report = this.client.get("/jobs/report", "viewer").body().get("job");
        assertThat(report.get("cron").asString()).isEqualTo("0 30 2 * * *");
        assertThat(report.get("zone").asString()).isEqualTo("UTC");
        assertLatestAudit(
                "admin",
                "job.schedule",
                "report",
                "{\"schedule\":\"cron(0 0 0 1 1 *, Europe/Berlin)\"}",
                "{\"schedule\":\"cron(0 30 2 * * *, UTC)\"}",
                200);

        String params = params("{\"to\":\"ops@example.com\"}");
        expectedAudit += refusedBelow("/jobs/newsletter/params", params, "admin");
        assertThat(this.client.post("/jobs/newsletter/params", "admin", params).status())
                .isEqualTo(200);
        expectedAudit++;
        assertThat(job(this.client.get("/jobs", "operator"), "newsletter")
                        .get("params")
                        .asString())
                .isEqualTo("{\"to\":\"ops@example.com\"}");
        assertLatestAudit(
                "admin",
                "job.params",
                "newsletter",
                "{\"params\":\"{\\\"to\\\":\\\"a@b.c\\\"}\"}",
                "{\"params\":\"{\\\"to\\\":\\\"ops@example.com\\\"}\"}",
                200);

        String replay = "/dead-letters/" + letters.get(0) + "/replay";
        expectedAudit += refusedBelow(replay, "{\"reason\":\"fixed\"}", "operator");
        Response replayed = this.client.post(replay, "operator", "{\"reason\":\"fixed\"}");
        expectedAudit++;
        assertThat(replayed.status()).isEqualTo(200);
        long replayRun = replayed.body()
                .get("after")
                .get("replays")
                .get(String.valueOf(letters.get(0)))
                .asLong();
        assertThat(letterStatus(letters.get(0))).isEqualTo("REPLAYED");
        assertLatestAudit(
                "operator",
                "dead-letter.replay",
                String.valueOf(letters.get(0)),
                "{\"status\":\"OPEN\"}",
                "{\"replays\":{\"" + letters.get(0) + "\":" + replayRun + "}}",
                200);
        assertReplayOf(replayRun);
        // the replay fails again into a dead letter of its own; let it, before the next refusals
        await().atMost(Duration.ofSeconds(30)).until(() -> "DEAD_LETTERED"
                .equals(this.client
                        .get("/executions/" + replayRun, "viewer")
                        .body()
                        .get("execution")
                        .get("status")
                        .asString()));

        String discard = "/dead-letters/" + letters.get(1) + "/discard";
        expectedAudit += refusedBelow(discard, "{\"reason\":\"obsolete\"}", "operator");
        assertThat(this.client
                        .post(discard, "operator", "{\"reason\":\"obsolete\"}")
                        .status())
                .isEqualTo(200);
        expectedAudit++;
        assertThat(letterStatus(letters.get(1))).isEqualTo("DISCARDED");
        assertLatestAudit(
                "operator",
                "dead-letter.discard",
                String.valueOf(letters.get(1)),
                "{\"status\":\"OPEN\"}",
                "{\"status\":\"DISCARDED\"}",
                200);

        String both = letters.get(4) + "," + letters.get(5);
        String discardBoth = "{\"ids\":\"" + both + "\",\"reason\":\"duplicates\"}";
        expectedAudit += refusedBelow("/dead-letters/discard", discardBoth, "operator");
        assertThat(this.client
                        .post("/dead-letters/discard", "operator", discardBoth)
                        .status())
                .isEqualTo(200);
        expectedAudit++;
        for (long id : letters.subList(4, 6)) {
            JsonNode discarded =
                    this.client.get("/dead-letters/" + id, "viewer").body();
            assertThat(discarded.get("status").asString()).isEqualTo("DISCARDED");
            assertThat(discarded.get("actedBy").asString()).isEqualTo("operator");
            assertThat(discarded.get("actedReason").asString()).isEqualTo("duplicates");
        }
        assertLatestAudit(
                "operator", "dead-letter.discard", both, "{\"status\":\"OPEN\"}", "{\"status\":\"DISCARDED\"}", 200);
        assertThat(latestAudit().get("reason")).isEqualTo("duplicates");

        String many = "{\"ids\":\"" + letters.get(2) + "," + letters.get(3) + "\",\"reason\":\"bulk\"}";
        expectedAudit += refusedBelow("/dead-letters/replay", many, "operator");
        Response replayedMany = this.client.post("/dead-letters/replay", "operator", many);
        expectedAudit++;
        assertThat(replayedMany.status()).isEqualTo(200);
        assertThat(letterStatus(letters.get(2))).isEqualTo("REPLAYED");
        assertThat(letterStatus(letters.get(3))).isEqualTo("REPLAYED");
        JsonNode replays = replayedMany.body().get("after").get("replays");
        long first = replays.get(String.valueOf(letters.get(2))).asLong();
        long second = replays.get(String.valueOf(letters.get(3))).asLong();
        assertLatestAudit(
                "operator",
                "dead-letter.replay",
                letters.get(2) + "," + letters.get(3),
                "{\"status\":\"OPEN\"}",
                "{\"replays\":{\"" + letters.get(2) + "\":" + first + ",\"" + letters.get(3) + "\":" + second + "}}",
                200);
        assertThat(latestAudit().get("reason")).isEqualTo("bulk");
        assertReplayOf(first);
        assertReplayOf(second);

        assertThat(this.client
                        .post("/jobs/report/schedule", "admin", "{\"fixedRate\":\"1h\"}")
                        .status())
                .isEqualTo(200);
        expectedAudit++;
        // a fixed rate fires at once, then an hour later
        JsonNode fixedRate = await().atMost(Duration.ofSeconds(30))
                .until(() -> this.client.get("/jobs/report", "viewer").body().get("job"), (job) -> Instant.parse(
                                job.get("nextFireAt").asString())
                        .isAfter(Instant.now().plus(Duration.ofMinutes(59))));
        assertThat(Instant.parse(fixedRate.get("nextFireAt").asString()))
                .isBefore(Instant.now().plus(Duration.ofHours(1)));
        assertThat(fixedRate.get("schedule").asString()).isEqualTo("fixedRate(PT1H, initialDelay PT0S)");
        assertThat(fixedRate.get("fixedRate").asString()).isEqualTo("PT1H");
        assertThat(fixedRate.get("cron").isNull()).isTrue();
        assertLatestAudit(
                "admin",
                "job.schedule",
                "report",
                "{\"schedule\":\"cron(0 30 2 * * *, UTC)\"}",
                "{\"schedule\":\"fixedRate(PT1H, initialDelay PT0S)\"}",
                200);

        assertThat(this.sql.queryForObject("SELECT COUNT(*) FROM dsched_audit", Long.class))
                .isEqualTo(expectedAudit);
        assertThat(this.sql.queryForList("SELECT DISTINCT remote_address FROM dsched_audit", String.class))
                .containsExactly("127.0.0.1");
        assertThat(this.sql.queryForList("SELECT DISTINCT node_id FROM dsched_audit", String.class))
                .containsExactly("node-1");
    }

    @Test
    void anOperatorCancelsAWaitingAndStopsARunningExecutionAndEveryCancelIsAudited() {
        JobScheduler scheduler = this.node.bean(JobScheduler.class);
        long waiting = scheduler
                .submit(OneOff.of("mailer", new ManagementApp.Mail("a@b.c")).after(Duration.ofHours(1)))
                .executionId();
        String path = "/executions/" + waiting + "/cancel";

        refusedBelow(path, "{}", "operator");
        assertThat(execution(waiting).get("status").asString()).isEqualTo("SCHEDULED");
        Response cancelled = this.client.post(path, "operator", "{\"reason\":\"customer withdrew\"}");
        assertThat(cancelled.status()).as(cancelled.text()).isEqualTo(200);
        assertLatestAudit(
                "operator",
                "execution.cancel",
                String.valueOf(waiting),
                "{\"status\":\"SCHEDULED\"}",
                "{\"status\":\"CANCELLED\"}",
                200);
        assertThat(latestAudit().get("reason")).isEqualTo("customer withdrew");
        assertThat(execution(waiting).get("status").asString()).isEqualTo("CANCELLED");
        assertThat(execution(waiting).get("statusReason").asString()).isEqualTo("cancelled by operator");
        // again: nothing changes, and it is no error
        Response again = this.client.post(path, "admin", "{}");
        assertThat(again.status()).as(again.text()).isEqualTo(200);
        assertLatestAudit(
                "admin",
                "execution.cancel",
                String.valueOf(waiting),
                "{\"status\":\"CANCELLED\"}",
                "{\"status\":\"CANCELLED\"}",
                200);
        assertThat(execution(waiting).get("statusReason").asString()).isEqualTo("cancelled by operator");

        long running = scheduler.submit(OneOff.of("holder", null)).executionId();
        await().atMost(Duration.ofSeconds(30))
                .until(() -> "RUNNING".equals(execution(running).get("status").asString()));
        Response stop = this.client.post("/executions/" + running + "/cancel", "operator", "{}");
        assertThat(stop.status()).as(stop.text()).isEqualTo(200);
        assertThat(stop.body().get("after").get("stopRequested").asBoolean()).isTrue();
        assertLatestAudit(
                "operator",
                "execution.cancel",
                String.valueOf(running),
                "{\"status\":\"RUNNING\"}",
                "{\"status\":\"RUNNING\",\"stopRequested\":true}",
                200);
        // the holder waits on a latch: it ends when the grace is over and its thread is interrupted
        await().atMost(Duration.ofSeconds(10))
                .until(() -> "CANCELLED".equals(execution(running).get("status").asString()));

        long ended = scheduler.trigger("report").executionId();
        await().atMost(Duration.ofSeconds(30))
                .until(() -> "SUCCEEDED".equals(execution(ended).get("status").asString()));
        assertError(this.client.post("/executions/" + ended + "/cancel", "operator", "{}"), 409, null);
        assertLatestAudit("operator", null, null, null, null, 409);
        assertThat(execution(ended).get("status").asString()).isEqualTo("SUCCEEDED");
        assertError(this.client.post("/executions/987654321/cancel", "operator", "{}"), 404, null);
        assertError(this.client.post("/executions/x/cancel", "operator", "{}"), 400, "id");
        assertError(this.client.post("/executions/" + waiting + "/explode", "operator", "{}"), 404, null);
    }

    private JsonNode execution(long id) {
        return this.client.get("/executions/" + id, "viewer").body().get("execution");
    }

    @Test
    void badInputUnknownThingsAndConflictsAreRefusedWithTheReasonAndChangeNothing() {
        Response cron = this.client.post("/jobs/report/schedule", "admin", "{\"cron\":\"0 61 * * * *\"}");
        assertThat(cron.status()).isEqualTo(400);
        assertThat(cron.body().get("field").asString()).isEqualTo("cron");
        assertThat(cron.body().get("message").asString())
                .isEqualTo("Invalid cron expression '0 61 * * * *': minute: '61' is not a valid value (0-59)");
        Response dayOfWeek = this.client.post("/jobs/report/schedule", "admin", "{\"cron\":\"0 0 * * * FOO\"}");
        assertError(dayOfWeek, 400, "cron");
        assertThat(dayOfWeek.body().get("message").asString())
                .isEqualTo("Invalid cron expression '0 0 * * * FOO': day of week: 'FOO' is not a valid value"
                        + " (0-7 or SUN-SAT)");
        Response range = this.client.post("/jobs/report/schedule", "admin", "{\"cron\":\"0 0 5-2 * * *\"}");
        assertError(range, 400, "cron");
        assertThat(range.body().get("message").asString())
                .isEqualTo("Invalid cron expression '0 0 5-2 * * *': hour: '5-2' is not a valid value:"
                        + " minimum value must be less than maximum value");
        Response fields = this.client.post("/jobs/report/schedule", "admin", "{\"cron\":\"0 0 * * *\"}");
        assertError(fields, 400, "cron");
        assertThat(fields.body().get("message").asString())
                .startsWith("Invalid cron expression '0 0 * * *': ")
                .contains("6 fields");
        assertThat(this.client
                        .get("/jobs/report", "viewer")
                        .body()
                        .get("job")
                        .get("cron")
                        .asString())
                .isEqualTo(ManagementApp.NEVER);

        assertError(
                this.client.post("/jobs/report/schedule", "admin", "{\"cron\":\"0 0 * * * *\",\"zone\":\"Mars/Base\"}"),
                400,
                "zone");
        assertError(this.client.post("/jobs/report/schedule", "admin", "{}"), 400, "cron");
        assertError(this.client.post("/jobs/report/schedule", "admin", "{\"fixedRate\":\"soon\"}"), 400, "fixedRate");
        assertError(this.client.post("/jobs/nosuch/pause", "operator", "{}"), 404, null);
        assertError(this.client.get("/jobs/nosuch", "viewer"), 404, null);
        assertError(this.client.get("/executions/999999", "viewer"), 404, null);
        assertError(this.client.get("/executions/abc", "viewer"), 400, "id");
        assertError(this.client.get("/dead-letters/424242", "viewer"), 404, null);
        assertError(this.client.get("/nosuch", "viewer"), 404, null);
        assertError(this.client.get("/executions?size=500", "viewer"), 400, "size");
        assertError(this.client.get("/executions?status=happy", "viewer"), 400, "status");
        assertError(this.client.get("/jobs?window=forever", "viewer"), 400, "window");
        assertError(this.client.get("/dead-letters?from=yesterday", "viewer"), 400, "from");
        assertError(this.client.post("/jobs/report/params", "admin", params("{\"a\":1}")), 409, null);
        assertError(this.client.post("/jobs/report/trigger", "admin", params("{\"a\":1}")), 409, null);
        assertError(
                this.client.post("/jobs/report/pause", "operator", "{\"reason\":\"" + "x".repeat(1001) + "\"}"),
                400,
                "reason");
        assertError(this.client.post("/dead-letters/replay", "operator", "{\"ids\":\"\"}"), 400, "ids");
        assertError(this.client.post("/dead-letters/replay", "operator", "{\"ids\":\"1,x\"}"), 400, "ids");
        assertError(this.client.post("/jobs/report/trigger", "admin", "{\"params\":\"{oops\"}"), 400, "params");
        assertError(this.client.post("/dead-letters/1/discard", "operator", "{}"), 400, "reason");
        assertError(this.client.post("/dead-letters/77/replay", "operator", "{}"), 404, null);

        assertThat(this.client.post("/jobs/report/pause", "operator", "{}").status())
                .isEqualTo(200);
        assertError(this.client.post("/jobs/report/pause", "operator", "{}"), 409, null);
        assertThat(this.client.post("/jobs/report/resume", "operator", "{}").status())
                .isEqualTo(200);
        assertError(this.client.post("/jobs/report/resume", "operator", "{}"), 409, null);

        List<Long> letters = deadLetters(2);
        long letter = letters.get(0);
        long open = letters.get(1);
        assertThat(this.client
                        .post("/dead-letters/" + letter + "/discard", "operator", "{\"reason\":\"no\"}")
                        .status())
                .isEqualTo(200);
        Response again = this.client.post("/dead-letters/" + letter + "/replay", "operator", "{}");
        assertError(again, 409, null);
        assertThat(again.body().get("message").asString()).contains("DISCARDED").contains("operator");
        assertThat(letterStatus(letter)).isEqualTo("DISCARDED");

        // all or none: the open letter comes first, and is still not acted on
        String before = state();
        String notOpen = open + "," + letter;
        Response discardNotOpen = this.client.post(
                "/dead-letters/discard", "operator", "{\"ids\":\"" + notOpen + "\",\"reason\":\"cleanup\"}");
        assertError(discardNotOpen, 409, null);
        assertThat(discardNotOpen.body().get("message").asString())
                .isEqualTo("Dead letter " + letter + " is DISCARDED already, by operator");
        assertLatestAudit("operator", "dead-letter.discard", notOpen, "null", "null", 409);
        assertThat(latestAudit().get("detail"))
                .isEqualTo("Dead letter " + letter + " is DISCARDED already, by operator");
        String unknown = open + ",999999";
        Response discardUnknown = this.client.post(
                "/dead-letters/discard", "operator", "{\"ids\":\"" + unknown + "\",\"reason\":\"cleanup\"}");
        assertError(discardUnknown, 404, null);
        assertThat(discardUnknown.body().get("message").asString()).isEqualTo("No dead letter with id 999999");
        assertLatestAudit("operator", "dead-letter.discard", unknown, "null", "null", 404);
        assertError(this.client.post("/dead-letters/replay", "operator", "{\"ids\":\"" + notOpen + "\"}"), 409, null);
        assertThat(state()).isEqualTo(before);
        JsonNode untouched = this.client.get("/dead-letters/" + open, "viewer").body();
        assertThat(untouched.get("status").asString()).isEqualTo("OPEN");
        assertThat(untouched.get("actedBy").isNull()).isTrue();

        List<Map<String, Object>> refused =
                this.sql.queryForList("SELECT action, result, detail FROM dsched_audit WHERE result <> 200");
        assertThat(refused)
                .extracting((row) -> ((Number) row.get("result")).intValue())
                .contains(400, 404, 409);
        assertThat(refused)
                .anySatisfy((row) -> assertThat((String) row.get("detail")).startsWith("Invalid cron expression"));
    }

    @Test
    void inputOverItsSizeLimitIsRefusedWithTheReasonAndChangesNothing() {
        createNewsletter();
        long letter = deadLetters(1).get(0);
        String before = state();
        long audited = this.sql.queryForObject("SELECT COALESCE(MAX(id), 0) FROM dsched_audit", Long.class);

        String params = params("{\"to\":\"" + "x".repeat(EndpointParameters.MAX_PARAMS) + "\"}");
        for (String action : List.of("params", "trigger")) {
            assertRefused(
                    this.client.post("/jobs/newsletter/" + action, "admin", params),
                    "params",
                    "params may have at most 65536 characters of JSON");
        }
        String name = "j".repeat(EndpointParameters.MAX_NAME + 1);
        assertRefused(
                this.client.post("/jobs/" + name + "/pause", "operator", "{}"),
                "job",
                "job must have 1 to 200 characters");
        assertRefused(this.client.get("/executions?job=" + name, "viewer"), "job", "job must have 1 to 200 characters");
        String tooMany = letter + "," + unknownIds(EndpointParameters.MAX_IDS);
        for (String action : List.of("replay", "discard")) {
            assertRefused(
                    this.client.post(
                            "/dead-letters/" + action,
                            "operator",
                            "{\"ids\":\"" + tooMany + "\",\"reason\":\"cleanup\"}"),
                    "ids",
                    "At most 500 ids at once");
        }
        // a valid cron of 121 characters
        String cron = "0 0 0 1 1 " + String.join(",", Collections.nCopies(28, "MON"));
        assertThat(cron).hasSize(121);
        assertRefused(
                this.client.post("/jobs/report/schedule", "admin", "{\"cron\":\"" + cron + "\"}"),
                "cron",
                "cron must have 1 to 120 characters");

        assertThat(state()).isEqualTo(before);
        assertThat(this.sql.queryForList(
                        "SELECT action, result, detail FROM dsched_audit WHERE id > ? ORDER BY id", audited))
                .extracting((row) -> row.get("action") + " " + row.get("result") + " " + row.get("detail"))
                .containsExactly(
                        "job.params 400 params may have at most 65536 characters of JSON",
                        "job.trigger 400 params may have at most 65536 characters of JSON",
                        "job.pause 400 job must have 1 to 200 characters",
                        "dead-letter.replay 400 At most 500 ids at once",
                        "dead-letter.discard 400 At most 500 ids at once",
                        "job.schedule 400 cron must have 1 to 120 characters");
        // at the limit, the ids are looked up: the first unknown one is not found, and nothing is acted on
        Response atTheLimit = this.client.post(
                "/dead-letters/replay",
                "operator",
                "{\"ids\":\"" + letter + "," + unknownIds(EndpointParameters.MAX_IDS - 1) + "\"}");
        assertError(atTheLimit, 404, null);
        assertThat(letterStatus(letter)).isEqualTo("OPEN");
    }

    private static String unknownIds(int count) {
        return String.join(
                ",",
                LongStream.range(0, count)
                        .mapToObj((i) -> String.valueOf(900_000_000 + i))
                        .toList());
    }

    private static void assertRefused(Response response, String field, String message) {
        assertError(response, 400, field);
        assertThat(response.body().get("message").asString()).isEqualTo(message);
    }

    @Test
    void aViewerReadsTheLastHourMinuteByMinuteAPreviewOfACronAndWhatEachUserMayDo() {
        this.node
                .bean(JobScheduler.class)
                .create(RecurringJob.of(
                        "ticker", "mailer", new Schedule.Cron("* * * * * *", null), new ManagementApp.Mail("a@b.c")));
        assertThat(this.client.post("/jobs/doomed/trigger", "operator", "{}").status())
                .isEqualTo(200);
        await().atMost(Duration.ofSeconds(30)).until(() -> openLetters().size() == 1);
        JsonNode timeline = await().atMost(Duration.ofSeconds(30))
                .until(
                        () -> this.client.get("/timeline", "viewer").body(),
                        (body) -> sum(body, "succeeded") >= 2
                                && StreamSupport.stream(body.get("minutes").spliterator(), false)
                                        .anyMatch((minute) ->
                                                !minute.get("lagP95").isNull()));
        assertThat(timeline.get("minutes")).hasSize(60);
        assertThat(timeline.get("deadLetterBacklog").asLong()).isEqualTo(1);
        assertThat(timeline.get("sampled").asBoolean()).isFalse();
        assertThat(sum(timeline, "failed")).isEqualTo(1);
        assertThat(sum(timeline, "started")).isGreaterThanOrEqualTo(3);
        // each minute's rate is its successes over its finished attempts, none without any; the
        // minute of the dead-lettered attempt has a failure and so a rate below one
        List<JsonNode> minutes = StreamSupport.stream(timeline.get("minutes").spliterator(), false)
                .toList();
        for (JsonNode minute : minutes) {
            long succeeded = minute.get("succeeded").asLong();
            long finished = succeeded + minute.get("failed").asLong();
            if (finished == 0) {
                assertThat(minute.get("successRate").isNull())
                        .as("rate of %s", minute)
                        .isTrue();
            } else {
                assertThat(minute.get("successRate").asDouble())
                        .as("rate of %s", minute)
                        .isCloseTo((double) succeeded / finished, org.assertj.core.data.Offset.offset(1e-9));
            }
        }
        assertThat(minutes)
                .filteredOn((minute) -> minute.get("failed").asLong() > 0)
                .singleElement()
                .satisfies((minute) ->
                        assertThat(minute.get("successRate").asDouble()).isLessThan(1.0));
        assertThat(java.time.Instant.parse(timeline.get("to").asString()))
                .isAfter(java.time.Instant.now().minusSeconds(61));
        assertThat(this.client.get("/timeline?window=2h", "viewer").body().get("minutes"))
                .hasSize(120);
        assertError(this.client.get("/timeline?window=2d", "viewer"), 400, "window");

        Response preview = this.client.get("/schedule-preview?cron=0%200%202%20*%20*%20*&zone=Europe/Berlin", "viewer");
        assertThat(preview.status()).as(preview.text()).isEqualTo(200);
        assertThat(preview.body().get("zone").asString()).isEqualTo("Europe/Berlin");
        List<java.time.Instant> next = StreamSupport.stream(
                        preview.body().get("next").spliterator(), false)
                .map((at) -> java.time.Instant.parse(at.asString()))
                .toList();
        assertThat(next).hasSize(5).isSorted().allSatisfy((at) -> assertThat(
                        at.atZone(java.time.ZoneId.of("Europe/Berlin")).toLocalTime())
                .isEqualTo(java.time.LocalTime.of(2, 0)));
        Response invalid = this.client.get("/schedule-preview?cron=0%2061%20*%20*%20*%20*", "viewer");
        assertError(invalid, 400, "cron");
        assertThat(invalid.body().get("message").asString()).startsWith("Invalid cron expression '0 61 * * * *'");
        assertError(
                this.client.get("/schedule-preview?cron=0%200%202%20*%20*%20*&zone=Mars/Base", "viewer"), 400, "zone");
        assertError(this.client.get("/schedule-preview", "viewer"), 400, "cron");
        assertThat(this.client.get("/schedule-preview?cron=%40hourly", null).status())
                .isEqualTo(401);
        assertThat(this.client.get("/timeline", "stranger").status()).isEqualTo(403);

        assertThat(roles("viewer")).containsExactly("viewer");
        assertThat(roles("operator")).containsExactly("viewer", "operator");
        assertThat(roles("admin")).containsExactly("viewer", "operator", "admin");
        assertThat(roles("stranger")).isEmpty();
        JsonNode me = this.client.get("/me", "operator").body();
        assertThat(me.get("name").asString()).isEqualTo("operator");
        assertThat(me.get("writes").asBoolean()).isTrue();
        assertThat(this.client.get("/me", null).status()).isEqualTo(401);
    }

    private List<String> roles(String user) {
        Response me = this.client.get("/me", user);
        assertThat(me.status()).isEqualTo(200);
        return StreamSupport.stream(me.body().get("roles").spliterator(), false)
                .map(JsonNode::asString)
                .toList();
    }

    private static long sum(JsonNode timeline, String field) {
        return StreamSupport.stream(timeline.get("minutes").spliterator(), false)
                .mapToLong((minute) -> minute.get(field).asLong())
                .sum();
    }

    /**
     * Tries a write without a user and with each role below the one it needs: each is refused and
     * changes nothing. A refusal without a user writes no audit row; a user's first refusal of the
     * minute writes one, later ones are only counted.
     * @return the audit rows the refusals wrote
     */
    @Test
    void anAdminSetsAHandlersLimitsForTheClusterAndTakesThemBackEachChangeAudited() {
        JsonNode declared = limit("capture");
        assertThat(declared.get("maxConcurrent").asInt()).isEqualTo(3);
        assertThat(declared.get("rate").asString()).isEqualTo("50/1s");
        assertThat(declared.get("declaredMaxConcurrent").asInt()).isEqualTo(3);
        assertThat(declared.get("setBy").isNull()).isTrue();
        assertThat(declared.get("running").asLong()).isZero();

        assertThat(declared.get("quota").isNull()).isTrue();
        String body =
                "{\"maxConcurrent\":\"5\",\"rate\":\"10/1s\",\"quota\":\"1000/1d\",\"reason\":\"the partner asked\"}";
        refusedBelow("/limits/capture/set", body, "admin");
        Response set = this.client.post("/limits/capture/set", "admin", body);
        assertThat(set.status()).isEqualTo(200);
        assertLatestAudit(
                "admin",
                "limit.set",
                "capture",
                "{\"maxConcurrent\":3,\"rate\":\"50/1s\",\"quota\":\"none\",\"keyRate\":\"none\",\"setBy\":null}",
                "{\"maxConcurrent\":5,\"rate\":\"10/1s\",\"quota\":\"1000/1d\",\"keyRate\":\"none\",\"setBy\":\"admin\"}",
                200);
        assertThat(latestAudit().get("reason")).isEqualTo("the partner asked");
        JsonNode changed = limit("capture");
        assertThat(changed.get("maxConcurrent").asInt()).isEqualTo(5);
        assertThat(changed.get("rate").asString()).isEqualTo("10/1s");
        assertThat(changed.get("declaredMaxConcurrent").asInt()).isEqualTo(3);
        assertThat(changed.get("declaredRate").asString()).isEqualTo("50/1s");
        assertThat(changed.get("setBy").asString()).isEqualTo("admin");
        assertThat(changed.get("quota").asString()).isEqualTo("1000/1d");
        assertThat(changed.get("declaredQuota").isNull()).isTrue();
        assertThat(changed.get("quotaUsed").asInt()).isZero();
        // the bucket holds no more than the new rate's permits
        assertThat(changed.get("tokens").asDouble()).isLessThanOrEqualTo(10);
        // what the row holds, which every node claims by
        assertThat(this.sql.queryForMap(
                        "SELECT max_concurrent, rate_permits, rate_period_ms, quota_permits, quota_period_ms, set_by"
                                + " FROM dsched_limit WHERE name = 'capture'"))
                .containsValues(5, 10, 1000, 86_400_000L, "admin");

        // one value changes alone; a rate of none takes the rate away
        assertThat(this.client
                        .post("/limits/capture/set", "admin", "{\"rate\":\"none\"}")
                        .status())
                .isEqualTo(200);
        assertThat(limit("capture").get("maxConcurrent").asInt()).isEqualTo(5);
        assertThat(limit("capture").get("rate").isNull()).isTrue();

        // bad input and unknown handlers change nothing
        String before = state();
        assertThat(this.client
                        .post("/limits/capture/set", "admin", "{\"maxConcurrent\":\"-1\"}")
                        .status())
                .isEqualTo(400);
        assertThat(this.client
                        .post("/limits/capture/set", "admin", "{\"maxConcurrent\":\"many\"}")
                        .status())
                .isEqualTo(400);
        assertThat(this.client
                        .post("/limits/capture/set", "admin", "{\"rate\":\"fast\"}")
                        .status())
                .isEqualTo(400);
        assertThat(this.client
                        .post("/limits/capture/set", "admin", "{\"quota\":\"1000/400d\"}")
                        .status())
                .isEqualTo(400);
        assertThat(this.client.post("/limits/capture/set", "admin", "{}").status())
                .isEqualTo(400);
        assertThat(this.client
                        .post("/limits/capture/set", "admin", "{\"keyRate\":\"5/1s\"}")
                        .status())
                .as("a rate of each key of a handler without keys")
                .isEqualTo(409);
        assertThat(this.client
                        .post("/limits/mailer/set", "admin", "{\"maxConcurrent\":\"2\"}")
                        .status())
                .as("a handler this node declares without limits, which it claims without them")
                .isEqualTo(409);
        assertThat(this.client
                        .post("/limits/nosuch/set", "admin", "{\"maxConcurrent\":\"2\"}")
                        .status())
                .as("no handler of that name")
                .isEqualTo(404);
        assertThat(this.client.post("/limits/capture/grow", "admin", "{}").status())
                .isEqualTo(404);
        assertThat(state()).isEqualTo(before);

        refusedBelow("/limits/capture/reset", "{}", "admin");
        assertThat(this.client.post("/limits/capture/reset", "admin", "{}").status())
                .isEqualTo(200);
        assertLatestAudit(
                "admin",
                "limit.reset",
                "capture",
                "{\"maxConcurrent\":5,\"rate\":\"none\",\"quota\":\"1000/1d\",\"keyRate\":\"none\",\"setBy\":\"admin\"}",
                "{\"maxConcurrent\":3,\"rate\":\"50/1s\",\"quota\":\"none\",\"keyRate\":\"none\",\"setBy\":null}",
                200);
        JsonNode reset = limit("capture");
        assertThat(reset.get("maxConcurrent").asInt()).isEqualTo(3);
        assertThat(reset.get("rate").asString()).isEqualTo("50/1s");
        assertThat(reset.get("setBy").isNull()).isTrue();
        assertThat(reset.get("quota").isNull()).isTrue();
        assertThat(this.client.post("/limits/capture/reset", "admin", "{}").status())
                .as("the declared limits already")
                .isEqualTo(409);
    }

    @Test
    void anAdminSetsAShardedJobsShardsForItsNextFiresAndTakesThemBackEachChangeAudited() {
        createNewsletter();
        // a viewer sees the parameters masked, as the other values
        assertThat(this.client
                        .get("/jobs/ledger", "viewer")
                        .body()
                        .get("shards")
                        .get("params")
                        .get("0")
                        .asString())
                .isEqualTo("******");
        JsonNode declared = this.client.get("/jobs/ledger", "admin").body().get("shards");
        assertThat(declared.get("count").asInt()).isEqualTo(3);
        assertThat(declared.get("declared").asInt()).isEqualTo(3);
        assertThat(declared.get("params").get("0").asString()).isEqualTo("north");
        assertThat(declared.get("setBy").isNull()).isTrue();
        assertThat(this.client
                        .get("/jobs/report", "viewer")
                        .body()
                        .get("shards")
                        .isNull())
                .as("a job without shards")
                .isTrue();

        String body = "{\"shards\":\"5\",\"shardParams\":\"{\\\"4\\\":\\\"west\\\"}\",\"reason\":\"month end\"}";
        refusedBelow("/jobs/ledger/shards", body, "admin");
        Response set = this.client.post("/jobs/ledger/shards", "admin", body);
        assertThat(set.status()).as(set.text()).isEqualTo(200);
        assertLatestAudit(
                "admin",
                "job.shards",
                "ledger",
                "{\"shards\":3,\"shardParams\":\"{\\\"0\\\":\\\"north\\\"}\",\"setBy\":null}",
                "{\"shards\":5,\"shardParams\":\"{\\\"4\\\":\\\"west\\\"}\",\"setBy\":\"admin\"}",
                200);
        assertThat(latestAudit().get("reason")).isEqualTo("month end");
        JsonNode changed = this.client.get("/jobs/ledger", "admin").body().get("shards");
        assertThat(changed.get("count").asInt()).isEqualTo(5);
        assertThat(changed.get("params").get("4").asString()).isEqualTo("west");
        assertThat(changed.get("params").has("0"))
                .as("the declared parameters count no more")
                .isFalse();
        assertThat(changed.get("declared").asInt()).isEqualTo(3);
        assertThat(changed.get("setBy").asString()).isEqualTo("admin");
        // what every node splits the job's next fires by
        assertThat(this.sql.queryForMap("SELECT shard_count, set_by FROM dsched_job_shards WHERE job_name = 'ledger'"))
                .containsValues(5, "admin");

        // bad input, jobs without shards of their own and unknown jobs change nothing
        String before = state();
        assertThat(this.client
                        .post("/jobs/ledger/shards", "admin", "{\"shards\":\"0\"}")
                        .status())
                .isEqualTo(400);
        assertThat(this.client
                        .post("/jobs/ledger/shards", "admin", "{\"shards\":\"1001\"}")
                        .status())
                .isEqualTo(400);
        assertThat(this.client
                        .post("/jobs/ledger/shards", "admin", "{\"shards\":\"many\"}")
                        .status())
                .isEqualTo(400);
        assertThat(this.client.post("/jobs/ledger/shards", "admin", "{}").status())
                .isEqualTo(400);
        assertThat(this.client
                        .post(
                                "/jobs/ledger/shards",
                                "admin",
                                "{\"shards\":\"2\",\"shardParams\":\"{\\\"2\\\":\\\"x\\\"}\"}")
                        .status())
                .as("a parameter past the shards")
                .isEqualTo(400);
        assertThat(this.client
                        .post("/jobs/ledger/shards", "admin", "{\"shards\":\"2\",\"shardParams\":\"[1]\"}")
                        .status())
                .isEqualTo(400);
        assertThat(this.client
                        .post("/jobs/report/shards", "admin", "{\"shards\":\"2\"}")
                        .status())
                .as("a job declared without shards")
                .isEqualTo(409);
        assertThat(this.client
                        .post("/jobs/warmup/shards", "admin", "{\"shards\":\"2\"}")
                        .status())
                .as("a broadcast job")
                .isEqualTo(409);
        assertThat(this.client
                        .post("/jobs/nosuch/shards", "admin", "{\"shards\":\"2\"}")
                        .status())
                .isEqualTo(404);
        assertThat(state()).isEqualTo(before);

        Response reset = this.client.post("/jobs/ledger/shards", "admin", "{\"shards\":\"declared\"}");
        assertThat(reset.status()).as(reset.text()).isEqualTo(200);
        assertLatestAudit(
                "admin",
                "job.shards",
                "ledger",
                "{\"shards\":5,\"shardParams\":\"{\\\"4\\\":\\\"west\\\"}\",\"setBy\":\"admin\"}",
                "{\"shards\":3,\"shardParams\":\"{\\\"0\\\":\\\"north\\\"}\",\"setBy\":null}",
                200);
        assertThat(this.client
                        .get("/jobs/ledger", "viewer")
                        .body()
                        .get("shards")
                        .get("count")
                        .asInt())
                .isEqualTo(3);
        assertThat(this.client
                        .post("/jobs/ledger/shards", "admin", "{\"shards\":\"declared\"}")
                        .status())
                .as("the declared shards already")
                .isEqualTo(409);

        // shards set for a job that declares none any more are taken back all the same
        this.sql.update("INSERT INTO dsched_job_shards (job_name, shard_count, shard_params, set_by, set_at)"
                + " VALUES ('report', 4, NULL, 'admin', CURRENT_TIMESTAMP)");
        Response stale = this.client.post("/jobs/report/shards", "admin", "{\"shards\":\"declared\"}");
        assertThat(stale.status()).as(stale.text()).isEqualTo(200);
        assertThat(this.sql.queryForObject("SELECT COUNT(*) FROM dsched_job_shards", Long.class))
                .isZero();
        assertThat(this.client
                        .post("/jobs/report/shards", "admin", "{\"shards\":\"declared\"}")
                        .status())
                .as("a job declared without shards, none set")
                .isEqualTo(409);

        // a job created at run time with shards has them as a declared one does, and takes others;
        // shards left set under its name before (a job of that name deleted) do not split it
        this.sql.update("INSERT INTO dsched_job_shards (job_name, shard_count, shard_params, set_by, set_at)"
                + " VALUES ('digest', 9, NULL, 'admin', CURRENT_TIMESTAMP)");
        this.node
                .bean(JobScheduler.class)
                .create(RecurringJob.of(
                                "digest",
                                "mailer",
                                new Schedule.Cron(ManagementApp.NEVER, null),
                                new ManagementApp.Mail("a@b.c"))
                        .withShards(2, Map.of(0, "east")));
        JsonNode created = this.client.get("/jobs/digest", "admin").body().get("shards");
        assertThat(created.get("count").asInt()).isEqualTo(2);
        assertThat(created.get("declared").asInt()).isEqualTo(2);
        assertThat(created.get("params").get("0").asString()).isEqualTo("east");
        assertThat(created.get("setBy").isNull()).isTrue();
        Response runtime = this.client.post("/jobs/digest/shards", "admin", "{\"shards\":\"6\"}");
        assertThat(runtime.status()).as(runtime.text()).isEqualTo(200);
        assertThat(this.client
                        .get("/jobs/digest", "viewer")
                        .body()
                        .get("shards")
                        .get("count")
                        .asInt())
                .isEqualTo(6);
        assertThat(this.client
                        .post("/jobs/newsletter/shards", "admin", "{\"shards\":\"2\"}")
                        .status())
                .as("a job created at run time without shards")
                .isEqualTo(409);
    }

    /** Creates a recurring job at run time that never fires: {@code newsletter}, of the handler {@code mailer}. */
    private void createNewsletter() {
        this.node
                .bean(JobScheduler.class)
                .create(RecurringJob.of(
                        "newsletter",
                        "mailer",
                        new Schedule.Cron(ManagementApp.NEVER, null),
                        new ManagementApp.Mail("a@b.c")));
    }

    private JsonNode limit(String handler) {
        for (JsonNode limit : this.client.get("/limits", "viewer").body()) {
            if (limit.get("name").asString().equals(handler)) {
                return limit;
            }
        }
        throw new AssertionError("No limits of " + handler);
    }

    private int refusedBelow(String path, String body, String needed) {
        List<String> refusedUsers = new ArrayList<>(List.of("stranger", "viewer"));
        if (needed.equals("admin")) {
            refusedUsers.add("operator");
        }
        String before = state();
        long rowsBefore = auditRows();
        Response anonymous = this.client.post(path, null, body);
        assertThat(anonymous.status()).as("anonymous POST %s", path).isEqualTo(401);
        assertThat(auditRows()).as("rows after an anonymous POST %s", path).isEqualTo(rowsBefore);
        for (String user : refusedUsers) {
            long rows = auditRows();
            Response refused = this.client.post(path, user, body);
            assertThat(refused.status()).as("%s POST %s", user, path).isEqualTo(403);
            assertThat(refused.body().get("message").asString()).contains("DSCHED_");
            if (auditRows() > rows) {
                assertLatestAudit(user, null, null, null, null, 403);
            }
        }
        assertThat(state()).as("state after refused POST %s", path).isEqualTo(before);
        return (int) (auditRows() - rowsBefore);
    }

    private long auditRows() {
        return this.sql.queryForObject("SELECT COUNT(*) FROM dsched_audit", Long.class);
    }

    private void assertTriggerAudited(String actor, String job, Response trigger) {
        long run = trigger.body().get("after").get("executionId").asLong();
        JsonNode execution =
                this.client.get("/executions/" + run, "viewer").body().get("execution");
        assertThat(execution.get("jobName").asString()).isEqualTo(job);
        assertThat(execution.get("origin").asString()).isEqualTo("MANUAL");
        assertLatestAudit(
                actor,
                "job.trigger",
                job,
                "null",
                "{\"executionId\":" + run + ",\"idempotencyKey\":\""
                        + execution.get("idempotencyKey").asString() + "\"}",
                200);
    }

    private void assertReplayOf(long run) {
        JsonNode execution =
                this.client.get("/executions/" + run, "viewer").body().get("execution");
        assertThat(execution.get("jobName").asString()).isEqualTo("doomed");
        assertThat(execution.get("origin").asString()).isEqualTo("REPLAY");
    }

    private List<Long> deadLetters(int count) {
        List<Long> before = openLetters();
        for (int i = 0; i < count; i++) {
            this.node.bean(JobScheduler.class).trigger("doomed");
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> openLetters().size() == before.size() + count);
        List<Long> letters = new ArrayList<>(openLetters());
        letters.removeAll(before);
        return letters;
    }

    private static String params(String json) {
        return "{\"params\":" + JsonMapper.builder().build().writeValueAsString(json) + "}";
    }

    private String state() {
        return this.sql.queryForList(
                        "SELECT TRIGGER_NAME, TRIGGER_STATE FROM DSCHED_QRTZ_TRIGGERS ORDER BY TRIGGER_NAME")
                + ""
                + this.sql.queryForList("SELECT id, status FROM dsched_dead_letter ORDER BY id")
                + this.sql.queryForList("SELECT cron_expression FROM DSCHED_QRTZ_CRON_TRIGGERS ORDER BY 1")
                + this.sql.queryForList("SELECT params FROM dsched_job")
                + this.sql.queryForList(
                        "SELECT name, max_concurrent, rate_permits, rate_period_ms, set_by FROM dsched_limit ORDER BY name")
                + this.sql.queryForList("SELECT job_name, shard_count, shard_params, set_by FROM dsched_job_shards")
                + this.sql.queryForObject("SELECT COUNT(*) FROM dsched_execution", Long.class);
    }

    private Map<String, Object> latestAudit() {
        return this.sql.queryForMap("SELECT * FROM dsched_audit WHERE id = (SELECT MAX(id) FROM dsched_audit)");
    }

    private void assertLatestAudit(
            String actor, String action, String target, String before, String after, int result) {
        Map<String, Object> row = latestAudit();
        assertThat(row.get("actor")).isEqualTo(actor);
        assertThat(((Number) row.get("result")).intValue()).isEqualTo(result);
        assertThat(row.get("acted_at")).isNotNull();
        if (action != null) {
            assertThat(row.get("action")).isEqualTo(action);
            assertThat(row.get("target")).isEqualTo(target);
            assertThat(String.valueOf(row.get("before_value"))).isEqualTo(before);
            assertThat(String.valueOf(row.get("after_value"))).isEqualTo(after);
        } else {
            assertThat(row.get("after_value")).isNull();
            assertThat((String) row.get("detail")).isNotBlank();
        }
    }

    private long executionOf(long letter) {
        return this.client
                .get("/dead-letters/" + letter, "viewer")
                .body()
                .get("executionId")
                .asLong();
    }

    private List<Long> letterIds(String query) {
        Response letters = this.client.get("/dead-letters" + query, "viewer");
        assertThat(letters.status()).as(letters.text()).isEqualTo(200);
        return StreamSupport.stream(letters.body().get("content").spliterator(), false)
                .map((letter) -> letter.get("id").asLong())
                .toList();
    }

    private List<Long> openLetters() {
        return this.sql.queryForList("SELECT id FROM dsched_dead_letter WHERE status = 'OPEN' ORDER BY id", Long.class);
    }

    private String letterStatus(long id) {
        return this.client
                .get("/dead-letters/" + id, "viewer")
                .body()
                .get("status")
                .asString();
    }

    private static JsonNode job(Response jobs, String name) {
        assertThat(jobs.status()).isEqualTo(200);
        return StreamSupport.stream(jobs.body().spliterator(), false)
                .filter((job) -> name.equals(job.get("name").asString()))
                .findFirst()
                .orElseThrow(() -> new AssertionError("No job " + name + " in " + jobs.text()));
    }

    private static void assertError(Response response, int status, String field) {
        assertThat(response.status()).as(response.text()).isEqualTo(status);
        assertThat(response.body().get("status").asInt()).isEqualTo(status);
        assertThat(response.body().get("message").asString()).isNotBlank();
        if (field != null) {
            assertThat(response.body().get("field").asString()).isEqualTo(field);
        }
        assertThat(response.text()).doesNotContain("Exception").doesNotContain("\tat ");
    }
}
