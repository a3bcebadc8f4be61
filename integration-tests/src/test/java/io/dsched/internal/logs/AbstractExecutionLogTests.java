package io.dsched.internal.logs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.Outcome;
import io.dsched.internal.deadletter.DeadLetters;
import io.dsched.internal.execution.FireExecutor;
import io.dsched.internal.store.ClusterTables;
import io.dsched.test.ClusterNode;
import io.dsched.test.TestCluster;
import io.dsched.test.TestDatabases;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;
import org.springframework.boot.logging.logback.StructuredLogEncoder;
import org.springframework.core.env.Environment;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * What an attempt logs is kept with its execution: its own lines and none of another job's, the
 * stack trace it failed with, within the cap, and no row for a silent success; and every line a
 * job logs carries the MDC fields of its attempt. Run against each database by a small subclass.
 */
abstract class AbstractExecutionLogTests {

    private static final String TIMESTAMP = "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z";

    @RegisterExtension
    final TestCluster cluster = TestCluster.of(this::kind);

    private ExecutionLogs logs;

    protected abstract TestDatabases.Kind kind();

    @BeforeEach
    void readLogs() {
        this.logs = new ExecutionLogs(this.cluster.observer(), this.cluster.platform(), ClusterTables.DEFAULT);
    }

    @Test
    void aDeadLetteredJobKeepsTheLinesAndTheStackTraceOfEachAttempt() {
        ClusterNode node = start(Map.of());

        node.bean(FireExecutor.class).fire("doomed", Instant.now().truncatedTo(ChronoUnit.SECONDS));
        await().atMost(Duration.ofSeconds(30))
                .until(() -> node.bean(DeadLetters.class).openCount() == 1);
        List<ExecutionRecord> attempts = attempts("doomed");
        assertThat(attempts).hasSize(2);
        ExecutionLog first = this.logs.find(attempts.get(0).id()).orElseThrow();
        ExecutionLog last = await().atMost(Duration.ofSeconds(10))
                .until(() -> this.logs.find(attempts.get(1).id()), (log) -> log.isPresent())
                .orElseThrow();

        assertThat(first.jobName()).isEqualTo("doomed");
        assertThat(first.truncated()).isFalse();
        assertThat(first.lines())
                .anyMatch((line) -> line.matches(
                        TIMESTAMP + " INFO io\\.dsched\\.internal\\.logs\\.LogJobs - Loading batch 7 on attempt 1"))
                .anyMatch((line) -> line.matches(
                        TIMESTAMP + " WARN io\\.dsched\\.internal\\.logs\\.LogJobs - Partner slow on attempt 1"))
                .contains("java.io.IOException: read timed out")
                .anyMatch((line) -> line.startsWith("\tat io.dsched.internal.logs.LogJobs$Jobs.doomed"))
                .anyMatch((line) ->
                        line.contains("WARN io.dsched.internal.execution.AttemptRunner - Attempt 1 of 'doomed'")
                                && line.contains("retrying in"))
                .noneMatch((line) -> line.contains("Below the captured level"))
                .noneMatch((line) -> line.contains("helper thread"))
                .noneMatch((line) -> line.contains("attempt 2"));
        assertThat(first.stackTrace())
                .startsWith("java.lang.IllegalStateException: partner down on attempt 1")
                .contains("at io.dsched.internal.logs.LogJobs$Jobs.doomed");
        assertThat(last.lines())
                .anyMatch(
                        (line) -> line.endsWith("INFO io.dsched.internal.logs.LogJobs - Loading batch 7 on attempt 2"))
                .anyMatch((line) ->
                        line.contains("ERROR io.dsched.internal.execution.AttemptRunner - Dead-lettering 'doomed'"))
                .noneMatch((line) -> line.contains("attempt 1"));
        assertThat(last.stackTrace()).startsWith("java.lang.IllegalStateException: partner down on attempt 2");
    }

    @Test
    void theLinesOfAJobRunningAtTheSameTimeDoNotLeakIntoAnother() throws Exception {
        ClusterNode node = start(Map.of());
        FireExecutor fires = node.bean(FireExecutor.class);
        Instant scheduledAt = Instant.now().truncatedTo(ChronoUnit.SECONDS);
        ExecutorService workers = Executors.newFixedThreadPool(2);
        try {
            // each logs a line, then waits for the other's, three times over
            CompletableFuture<Outcome> left =
                    CompletableFuture.supplyAsync(() -> fires.fire("left", scheduledAt), workers);
            CompletableFuture<Outcome> right =
                    CompletableFuture.supplyAsync(() -> fires.fire("right", scheduledAt), workers);
            assertThat(left.get(30, TimeUnit.SECONDS)).isEqualTo(Outcome.SUCCEEDED);
            assertThat(right.get(30, TimeUnit.SECONDS)).isEqualTo(Outcome.SUCCEEDED);
        } finally {
            workers.shutdownNow();
        }

        for (String job : List.of("left", "right")) {
            ExecutionLog log = this.logs.find(attempts(job).get(0).id()).orElseThrow();
            assertThat(log.lines())
                    .as(job)
                    .map((line) -> line.substring(line.indexOf(" - ") + 3))
                    .containsExactly(job + " says 0", job + " says 1", job + " says 2");
            assertThat(log.stackTrace()).isNull();
        }
    }

    @Test
    void aLogLongerThanTheMaximumSizeKeepsItsFirstPartAndSaysItWasTruncated() {
        ClusterNode node = start(Map.of("dsched.logs.max-size", "4KB"));

        node.bean(FireExecutor.class).fire("verbose", Instant.now().truncatedTo(ChronoUnit.SECONDS));

        ExecutionLog log = this.logs.find(attempts("verbose").get(0).id()).orElseThrow();
        assertThat(log.truncated()).isTrue();
        assertThat(log.lines().get(0)).endsWith(" - Line 0 " + "x".repeat(80));
        assertThat(log.lines().get(log.lines().size() - 1))
                .matches("… truncated at 4096 bytes: \\d+ more log events left out");
        int kept = String.join("\n", log.lines().subList(0, log.lines().size() - 1))
                        .getBytes(StandardCharsets.UTF_8)
                        .length
                + 1;
        assertThat(kept).isBetween(4096 - 200, 4096);
    }

    @Test
    void aSuccessThatLogsNothingAtTheCapturedLevelWritesNoRow() {
        ClusterNode node = start(Map.of());
        FireExecutor fires = node.bean(FireExecutor.class);
        Instant scheduledAt = Instant.now().truncatedTo(ChronoUnit.SECONDS);

        // fire runs the attempt on this thread: its log, if any, is written when fire returns
        assertThat(fires.fire("quiet", scheduledAt)).isEqualTo(Outcome.SUCCEEDED);
        assertThat(fires.fire("chatty", scheduledAt)).isEqualTo(Outcome.SUCCEEDED);

        assertThat(this.logs.find(attempts("quiet").get(0).id())).isEmpty();
        assertThat(this.logs.find(attempts("chatty").get(0).id())).hasValueSatisfying((log) -> assertThat(log.lines())
                .singleElement()
                .asString()
                .endsWith("INFO io.dsched.internal.logs.LogJobs - Settled 3 invoices"));
    }

    @Test
    void everyLineAJobLogsCarriesTheMdcFieldsOfItsAttempt() {
        ClusterNode node = start(Map.of());
        Logger jobLogger = (Logger) LoggerFactory.getLogger(LogJobs.class);
        Recorder recorder = new Recorder();
        recorder.setContext(jobLogger.getLoggerContext());
        recorder.start();
        jobLogger.addAppender(recorder);
        try {
            node.bean(FireExecutor.class).fire("doomed", Instant.now().truncatedTo(ChronoUnit.SECONDS));
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> node.bean(DeadLetters.class).openCount() == 1);
        } finally {
            jobLogger.detachAppender(recorder);
        }

        List<ExecutionRecord> attempts = attempts("doomed");
        for (ExecutionRecord attempt : attempts) {
            String line = "Loading batch 7 on attempt " + attempt.attempt();
            assertThat(recorder.mdcOf(line))
                    .as(line)
                    .containsEntry("dsched.job", "doomed")
                    .containsEntry("dsched.execution", String.valueOf(attempt.id()))
                    .containsEntry("dsched.attempt", String.valueOf(attempt.attempt()))
                    .containsEntry("dsched.node", "node-1");
        }
        // work handed to another thread is not the attempt's: neither its MDC nor its log
        assertThat(recorder.mdcOf("From a helper thread on attempt 1")).doesNotContainKey("dsched.execution");
    }

    @ParameterizedTest
    @ValueSource(strings = {"ecs", "logstash"})
    void inSpringBootsStructuredJsonEveryLineAJobLogsCarriesTheFieldsOfItsAttempt(String format) {
        ClusterNode node = start(Map.of());
        Logger jobLogger = (Logger) LoggerFactory.getLogger(LogJobs.class);
        JsonLines json = new JsonLines(format, node.bean(Environment.class));
        json.setContext(jobLogger.getLoggerContext());
        json.start();
        jobLogger.addAppender(json);
        try {
            node.bean(FireExecutor.class).fire("doomed", Instant.now().truncatedTo(ChronoUnit.SECONDS));
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> node.bean(DeadLetters.class).openCount() == 1);
        } finally {
            jobLogger.detachAppender(json);
        }

        for (ExecutionRecord attempt : attempts("doomed")) {
            String message = "Loading batch 7 on attempt " + attempt.attempt();
            // ECS nests the keys at their dots, logstash keeps each as a field of its own
            JsonNode line = json.lineOf(message);
            JsonNode fields = format.equals("ecs") ? line.get("dsched") : line;
            String prefix = format.equals("ecs") ? "" : "dsched.";
            assertThat(fields).as("%s: %s", message, line).isNotNull();
            assertThat(fields.path(prefix + "job").asString())
                    .as(line.toString())
                    .isEqualTo("doomed");
            assertThat(fields.path(prefix + "execution").asString())
                    .as(line.toString())
                    .isEqualTo(String.valueOf(attempt.id()));
            assertThat(fields.path(prefix + "attempt").asString())
                    .as(line.toString())
                    .isEqualTo(String.valueOf(attempt.attempt()));
            assertThat(fields.path(prefix + "node").asString())
                    .as(line.toString())
                    .isEqualTo("node-1");
        }
    }

    private ClusterNode start(Map<String, Object> properties) {
        Map<String, Object> all = new HashMap<>(properties);
        // the DEBUG lines of the jobs reach the appenders, and dsched.logs.level keeps them out
        all.put("logging.level.io.dsched.internal.logs.LogJobs", "debug");
        return this.cluster.start("node-1", LogJobs.class, all);
    }

    private List<ExecutionRecord> attempts(String job) {
        return this.cluster.executions().findByJobName(job).stream()
                .sorted(Comparator.comparingInt(ExecutionRecord::attempt))
                .toList();
    }

    /** Records the MDC of each event as it is logged, by message. */
    static final class Recorder extends AppenderBase<ILoggingEvent> {

        private final List<ILoggingEvent> events = new CopyOnWriteArrayList<>();

        @Override
        protected void append(ILoggingEvent event) {
            // the MDC is read when first asked for: ask on the thread that logs
            event.prepareForDeferredProcessing();
            this.events.add(event);
        }

        Map<String, String> mdcOf(String message) {
            return this.events.stream()
                    .filter((event) -> event.getFormattedMessage().equals(message))
                    .findFirst()
                    .map(ILoggingEvent::getMDCPropertyMap)
                    .orElseThrow(() -> new AssertionError("No event '" + message + "' in " + this.events));
        }
    }

    /** Writes each event as Spring Boot's structured logging does, one JSON object a line. */
    static final class JsonLines extends AppenderBase<ILoggingEvent> {

        private static final JsonMapper JSON = JsonMapper.builder().build();

        private final StructuredLogEncoder encoder = new StructuredLogEncoder();

        private final List<String> lines = new CopyOnWriteArrayList<>();

        JsonLines(String format, Environment environment) {
            // the encoder finds the application's environment in its logger context, as Boot sets it up
            LoggerContext context = new LoggerContext();
            context.putObject(Environment.class.getName(), environment);
            this.encoder.setContext(context);
            this.encoder.setFormat(format);
            this.encoder.start();
        }

        @Override
        protected void append(ILoggingEvent event) {
            this.lines.add(new String(this.encoder.encode(event), StandardCharsets.UTF_8));
        }

        JsonNode lineOf(String message) {
            return this.lines.stream()
                    .map(JSON::readTree)
                    .filter((line) -> message.equals(line.path("message").asString()))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError("No line '" + message + "' in " + this.lines));
        }
    }
}
