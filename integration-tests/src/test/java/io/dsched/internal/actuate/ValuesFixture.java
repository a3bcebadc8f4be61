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
import java.time.Duration;
import java.util.List;
import java.util.stream.StreamSupport;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What the show-values tests read: a one-off whose payload and a runtime job whose parameters hold
 * keys that look secret, each run once into a dead letter with its stack trace and captured log
 * lines; and what a caller must see of them in every read of the endpoint, values shown (with the
 * secret keys masked) or masked whole.
 */
final class ValuesFixture {

    static final String PAYLOAD = "{\"to\":\"a@b.c\",\"apiKey\":\"s3cr3t\",\"note\":\"fine\","
            + "\"accounts\":[{\"name\":\"main\",\"dbPassword\":\"hunter2\"}]}";

    static final String PARAMS = "{\"to\":\"x@y.z\",\"apiKey\":\"s3cr3t\",\"note\":\"fine\","
            + "\"smtp\":{\"host\":\"mail\",\"client-secret\":\"hunter2\"}}";

    static final String MASKED = "******";

    private static final JsonMapper json = JsonMapper.builder().build();

    final long oneOffRun;

    final long runtimeRun;

    private ValuesFixture(long oneOffRun, long runtimeRun) {
        this.oneOffRun = oneOffRun;
        this.runtimeRun = runtimeRun;
    }

    /**
     * Submits the one-off, creates and triggers the runtime job, and waits for both dead letters and
     * for every node to know the job.
     */
    static ValuesFixture on(TestCluster cluster, ClusterNode node, String reader, List<EndpointClient> clients) {
        JobScheduler scheduler = node.bean(JobScheduler.class);
        scheduler.create(RecurringJob.of(
                "billing", "charge", new Schedule.Cron(ManagementApp.NEVER, null), json.readTree(PARAMS)));
        long oneOff =
                scheduler.submit(OneOff.of("charge", json.readTree(PAYLOAD))).executionId();
        // a run of a runtime job carries the parameters it was triggered with as its payload
        long runtime = scheduler.trigger("billing", json.readTree(PARAMS)).executionId();
        JdbcTemplate sql = new JdbcTemplate(cluster.observer());
        await().atMost(Duration.ofSeconds(30))
                .until(() -> sql.queryForObject(
                                "SELECT COUNT(*) FROM dsched_execution_log WHERE stack_trace IS NOT NULL"
                                        + " AND execution_id IN (?, ?)",
                                Long.class,
                                oneOff,
                                runtime)
                        == 2);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> sql.queryForObject("SELECT COUNT(*) FROM dsched_dead_letter", Long.class) == 2);
        for (EndpointClient client : clients) {
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> client.get("/jobs/billing", reader).status() == 200);
        }
        return new ValuesFixture(oneOff, runtime);
    }

    /** The body of a write of the runtime job's parameters, the same as it has. */
    static String paramsWrite() {
        return "{\"params\":" + json.writeValueAsString(PARAMS) + ",\"reason\":\"rotate\"}";
    }

    /** Every read of the endpoint as one user: values shown with secret keys masked, or masked whole. */
    void assertSeenBy(EndpointClient client, String user, boolean shown) {
        JsonNode jobs = read(client, "/jobs", user);
        JsonNode billing = item(jobs, "name", "billing");
        assertFlag(billing, shown);
        assertParams(billing.get("params"), shown);
        assertThat(item(jobs, "name", "report").get("params").isNull()).isTrue();

        JsonNode job = read(client, "/jobs/billing", user);
        assertFlag(job, shown);
        assertParams(job.get("job").get("params"), shown);
        assertParams(job.get("executions").get("content").get(0).get("payload"), shown);

        JsonNode oneOffs = read(client, "/executions?job=charge", user);
        assertFlag(oneOffs, shown);
        assertPayload(oneOffs.get("content").get(0).get("payload"), shown);

        for (long run : List.of(this.oneOffRun, this.runtimeRun)) {
            JsonNode execution = read(client, "/executions/" + run, user);
            assertFlag(execution, shown);
            assertValue(execution.get("execution").get("payload"), run, shown);
            assertValue(execution.get("attempts").get(0).get("payload"), run, shown);
            assertValue(execution.get("deadLetter").get("payload"), run, shown);
            assertStackTrace(execution.get("deadLetter").get("stackTrace"), shown);
            // the fire's letters, listed, are masked alike
            assertThat(execution.get("deadLetters")).hasSize(1);
            assertValue(execution.get("deadLetters").get(0).get("payload"), run, shown);
            assertStackTrace(execution.get("deadLetters").get(0).get("stackTrace"), shown);
            assertStackTrace(execution.get("log").get("stackTrace"), shown);
            assertLines(execution.get("log").get("lines"), shown);
        }

        JsonNode letters = read(client, "/dead-letters?job=charge", user);
        assertFlag(letters, shown);
        JsonNode listed = letters.get("content").get(0);
        assertPayload(listed.get("payload"), shown);
        assertStackTrace(listed.get("stackTrace"), shown);
        JsonNode letter = read(client, "/dead-letters/" + listed.get("id").asLong(), user);
        assertFlag(letter, shown);
        assertPayload(letter.get("payload"), shown);
        assertStackTrace(letter.get("stackTrace"), shown);

        JsonNode audit = read(client, "/audit", user);
        assertFlag(audit, shown);
        JsonNode entry = StreamSupport.stream(audit.get("content").spliterator(), false)
                .filter((row) -> row.get("action").asString().equals("job.params"))
                .filter((row) -> row.get("result").asInt() == 200)
                .findFirst()
                .orElseThrow(() -> new AssertionError("No write of parameters in " + audit));
        assertParams(json.readTree(entry.get("beforeValue").asString()).get("params"), shown);
        assertParams(json.readTree(entry.get("afterValue").asString()).get("params"), shown);
    }

    /** The answer of a write of the parameters: before and after shown with secret keys masked, or masked. */
    static void assertWriteAnswer(Response answer, boolean shown) {
        assertThat(answer.status()).as(answer.text()).isEqualTo(200);
        assertFlag(answer.body(), shown);
        assertParams(answer.body().get("before").get("params"), shown);
        assertParams(answer.body().get("after").get("params"), shown);
    }

    private void assertValue(JsonNode value, long run, boolean shown) {
        if (run == this.oneOffRun) {
            assertPayload(value, shown);
        } else {
            assertParams(value, shown);
        }
    }

    static void assertPayload(JsonNode value, boolean shown) {
        if (!shown) {
            assertThat(value.asString()).isEqualTo(MASKED);
            return;
        }
        JsonNode payload = json.readTree(value.asString());
        assertThat(payload.get("to").asString()).isEqualTo("a@b.c");
        assertThat(payload.get("note").asString()).isEqualTo("fine");
        assertThat(payload.get("apiKey").asString()).isEqualTo(MASKED);
        assertThat(payload.get("accounts").get(0).get("name").asString()).isEqualTo("main");
        assertThat(payload.get("accounts").get(0).get("dbPassword").asString()).isEqualTo(MASKED);
    }

    static void assertParams(JsonNode value, boolean shown) {
        if (!shown) {
            assertThat(value.asString()).isEqualTo(MASKED);
            return;
        }
        JsonNode params = json.readTree(value.asString());
        assertThat(params.get("to").asString()).isEqualTo("x@y.z");
        assertThat(params.get("note").asString()).isEqualTo("fine");
        assertThat(params.get("apiKey").asString()).isEqualTo(MASKED);
        assertThat(params.get("smtp").get("host").asString()).isEqualTo("mail");
        assertThat(params.get("smtp").get("client-secret").asString()).isEqualTo(MASKED);
    }

    private static void assertStackTrace(JsonNode value, boolean shown) {
        if (shown) {
            assertThat(value.asString())
                    .contains("java.lang.IllegalStateException: card declined")
                    .contains("at io.dsched.internal.actuate.ShowValuesApp$Charges.charge");
        } else {
            assertThat(value.asString()).isEqualTo(MASKED);
        }
    }

    private static void assertLines(JsonNode lines, boolean shown) {
        List<String> text = StreamSupport.stream(lines.spliterator(), false)
                .map(JsonNode::asString)
                .toList();
        if (shown) {
            assertThat(text)
                    .anySatisfy((line) -> assertThat(line).contains("INFO").contains("Charging "));
        } else {
            assertThat(text).containsExactly(MASKED);
        }
    }

    private static void assertFlag(JsonNode view, boolean shown) {
        assertThat(view.get("valuesMasked").asBoolean()).as("valuesMasked").isEqualTo(!shown);
    }

    private static JsonNode read(EndpointClient client, String path, String user) {
        Response response = client.get(path, user);
        assertThat(response.status())
                .as("%s GET %s: %s", user, path, response.text())
                .isEqualTo(200);
        return response.body();
    }

    private static JsonNode item(JsonNode items, String field, String value) {
        return StreamSupport.stream(items.spliterator(), false)
                .filter((item) -> value.equals(item.get(field).asString()))
                .findFirst()
                .orElseThrow(() -> new AssertionError("No " + value + " in " + items));
    }
}
