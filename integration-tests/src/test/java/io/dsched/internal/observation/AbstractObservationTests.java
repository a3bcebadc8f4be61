package io.dsched.internal.observation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.ExecutionStatus;
import io.dsched.internal.execution.FireExecutor;
import io.dsched.jobs.JobScheduler;
import io.dsched.jobs.OneOff;
import io.dsched.jobs.ScheduledJob;
import io.dsched.test.ClusterNode;
import io.dsched.test.TestCluster;
import io.dsched.test.TestDatabases;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Tracer;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.NoSuchBeanDefinitionException;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Traces of real runs, with Micrometer Tracing's OpenTelemetry bridge and W3C propagation: a span
 * per attempt, the job's own spans inside it, and a one-off job's attempts in the trace it was
 * submitted in, on another node. Run against each database by a small subclass.
 */
abstract class AbstractObservationTests {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @RegisterExtension
    final TestCluster cluster = TestCluster.of(this::kind);

    protected abstract TestDatabases.Kind kind();

    @Test
    void eachAttemptIsOneSpanWithItsJobOriginAndOutcomeAndAFailedOneCarriesItsError() {
        ClusterNode node = this.cluster.start("node-1", TracedJobs.class, Map.of());
        FireExecutor fires = node.bean(FireExecutor.class);
        Instant scheduledAt = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(60);

        fires.fire("steady", scheduledAt);
        fires.fire("flaky", scheduledAt);

        List<SpanData> flaky =
                await().atMost(TIMEOUT).until(() -> executionSpans(node, "flaky"), (spans) -> spans.size() == 3);
        assertThat(executionSpans(node, "steady")).singleElement().satisfies((span) -> {
            assertThat(span.getKind()).isEqualTo(SpanKind.CONSUMER);
            assertThat(span.getParentSpanContext().isValid()).isFalse();
            assertThat(span.getStatus().getStatusCode()).isNotEqualTo(StatusCode.ERROR);
            assertThat(tags(span))
                    .containsEntry("job", "steady")
                    .containsEntry("origin", "schedule")
                    .containsEntry("attempt", "first")
                    .containsEntry("outcome", "succeeded")
                    .containsEntry("attempt.number", "1")
                    .containsEntry("idempotency.key", ExecutionRecord.idempotencyKey("steady", scheduledAt))
                    .containsEntry("node", "node-1");
        });
        List<ExecutionRecord> attempts =
                this.cluster.executions().findByIdempotencyKey(ExecutionRecord.idempotencyKey("flaky", scheduledAt));
        assertThat(flaky)
                .extracting((span) -> tags(span).get("execution.id"))
                .containsExactlyInAnyOrderElementsOf(attempts.stream()
                        .map((attempt) -> String.valueOf(attempt.id()))
                        .toList());
        assertThat(flaky.get(0)).satisfies((span) -> {
            assertThat(tags(span))
                    .containsEntry("origin", "schedule")
                    .containsEntry("attempt", "first")
                    .containsEntry("outcome", "failed");
            assertFailedWith(span, "flaky failure on attempt 1");
        });
        assertThat(flaky.get(1)).satisfies((span) -> {
            assertThat(tags(span))
                    .containsEntry("origin", "retry")
                    .containsEntry("attempt", "retry")
                    .containsEntry("outcome", "failed");
            assertFailedWith(span, "flaky failure on attempt 2");
        });
        assertThat(flaky.get(2)).satisfies((span) -> {
            assertThat(tags(span))
                    .containsEntry("origin", "retry")
                    .containsEntry("attempt", "retry")
                    .containsEntry("attempt.number", "3")
                    .containsEntry("outcome", "succeeded");
            assertThat(span.getStatus().getStatusCode()).isNotEqualTo(StatusCode.ERROR);
        });
    }

    @Test
    void aSpanTheJobStartsIsAChildOfItsExecutionSpan() {
        ClusterNode node = this.cluster.start("node-1", TracedJobs.class, Map.of());

        node.bean(FireExecutor.class).fire("steady", Instant.now().truncatedTo(ChronoUnit.SECONDS));

        SpanData execution = await().atMost(TIMEOUT)
                .until(() -> executionSpans(node, "steady"), (spans) -> spans.size() == 1)
                .get(0);
        assertThat(spans(node))
                .filteredOn((span) -> span.getName().equals("inner"))
                .singleElement()
                .satisfies((inner) -> {
                    assertThat(inner.getTraceId()).isEqualTo(execution.getTraceId());
                    assertThat(inner.getParentSpanId()).isEqualTo(execution.getSpanId());
                });
    }

    @Test
    void aOneOffSubmittedInASpanRunsOnAnotherNodeInThatTraceAttemptAfterAttempt() {
        ClusterNode web = this.cluster.start("web", TracedJobs.class, Map.of("dsched.run-jobs", "false"));
        ClusterNode worker = this.cluster.start("worker", TracedJobs.class, Map.of());
        JobScheduler scheduler = web.bean(JobScheduler.class);
        Observation request = Observation.start("http.server.requests", web.bean(ObservationRegistry.class));
        String traceId;
        ScheduledJob reminder;
        ScheduledJob triggered;
        try (Observation.Scope scope = request.openScope()) {
            traceId = web.bean(Tracer.class).currentSpan().context().traceId();
            reminder = scheduler.submit(OneOff.of("remind", "call back"));
            triggered = scheduler.trigger("steady");
        } finally {
            request.stop();
        }
        ScheduledJob untraced = scheduler.submit(OneOff.of("remind", "no trace"));

        List<SpanData> attempts = await().atMost(TIMEOUT)
                .until(() -> executionSpans(worker, "remind", reminder), (spans) -> spans.size() == 2);
        SpanData submit = spans(web).stream()
                .filter((span) -> span.getName().equals("dsched.submit")
                        && "remind".equals(tags(span).get("job")))
                .findFirst()
                .orElseThrow();
        assertThat(submit.getTraceId()).isEqualTo(traceId);
        assertThat(submit.getKind()).isEqualTo(SpanKind.PRODUCER);
        assertThat(attempts).allSatisfy((span) -> {
            assertThat(span.getTraceId()).isEqualTo(traceId);
            assertThat(span.getParentSpanId()).isEqualTo(submit.getSpanId());
            assertThat(tags(span)).containsEntry("node", "worker");
        });
        assertThat(tags(attempts.get(0))).containsEntry("origin", "one_off").containsEntry("outcome", "failed");
        assertFailedWith(attempts.get(0), "mail server busy");
        assertThat(tags(attempts.get(1))).containsEntry("origin", "retry").containsEntry("outcome", "succeeded");
        assertThat(await().atMost(TIMEOUT)
                        .until(() -> executionSpans(worker, "steady", triggered), (spans) -> spans.size() == 1))
                .singleElement()
                .satisfies((span) -> {
                    assertThat(span.getTraceId()).isEqualTo(traceId);
                    assertThat(tags(span)).containsEntry("origin", "manual");
                });
        assertThat(await().atMost(TIMEOUT)
                        .until(() -> executionSpans(worker, "remind", untraced), (spans) -> spans.size() == 2))
                .allSatisfy((span) -> {
                    assertThat(span.getTraceId()).isNotEqualTo(traceId);
                    assertThat(span.getParentSpanContext().isValid()).isFalse();
                });
        assertThat(storedCarrier(reminder)).contains("\"traceparent\"").contains(traceId);
        assertThat(storedCarrier(untraced)).isNull();
    }

    @Test
    void withoutAnObservationRegistryNoTraceContextIsStored() {
        ClusterNode node = this.cluster.start(
                "node-1",
                ObservationJobs.class,
                Map.of(
                        "spring.autoconfigure.exclude",
                        "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration"));
        assertThatExceptionOfType(NoSuchBeanDefinitionException.class)
                .isThrownBy(() -> node.bean(ObservationRegistry.class));
        JobScheduler scheduler = node.bean(JobScheduler.class);

        ScheduledJob reminder = scheduler.submit(OneOff.of("remind", "call back"));
        ScheduledJob triggered = scheduler.trigger("steady");

        await().atMost(TIMEOUT).until(() -> succeeded(reminder) && succeeded(triggered));
        assertThat(this.cluster.executions().findByIdempotencyKey(reminder.idempotencyKey()))
                .hasSize(2);
        assertThat(new JdbcTemplate(this.cluster.observer())
                        .queryForObject("SELECT COUNT(*) FROM dsched_execution_trace", Long.class))
                .isZero();
    }

    private boolean succeeded(ScheduledJob job) {
        return this.cluster.executions().findByIdempotencyKey(job.idempotencyKey()).stream()
                .anyMatch((attempt) -> attempt.status() == ExecutionStatus.SUCCEEDED);
    }

    private String storedCarrier(ScheduledJob job) {
        return new JdbcTemplate(this.cluster.observer())
                        .queryForList(
                                "SELECT carrier FROM dsched_execution_trace WHERE idempotency_key = ?",
                                String.class,
                                job.idempotencyKey())
                        .stream()
                        .findFirst()
                        .orElse(null);
    }

    private static void assertFailedWith(SpanData span, String message) {
        assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(span.getEvents())
                .extracting(EventData::getName, (event) -> event.getAttributes().asMap().entrySet().stream()
                        .filter((attribute) -> attribute.getKey().getKey().equals("exception.message"))
                        .map(Map.Entry::getValue)
                        .findFirst()
                        .orElse(null))
                .contains(org.assertj.core.groups.Tuple.tuple("exception", message));
    }

    private static List<SpanData> spans(ClusterNode node) {
        return node.bean(InMemorySpanExporter.class).getFinishedSpanItems();
    }

    /** The execution spans of a job, in the order of their attempts. */
    private static List<SpanData> executionSpans(ClusterNode node, String job) {
        return spans(node).stream()
                .filter((span) -> span.getName().equals("dsched.execution")
                        && job.equals(tags(span).get("job")))
                .sorted(Comparator.comparing(
                        (SpanData span) -> Integer.valueOf(tags(span).get("attempt.number"))))
                .toList();
    }

    private static List<SpanData> executionSpans(ClusterNode node, String job, ScheduledJob fire) {
        return executionSpans(node, job).stream()
                .filter((span) -> fire.idempotencyKey().equals(tags(span).get("idempotency.key")))
                .toList();
    }

    private static Map<String, String> tags(SpanData span) {
        return span.getAttributes().asMap().entrySet().stream()
                .collect(Collectors.toMap(
                        (entry) -> entry.getKey().getKey(), (entry) -> String.valueOf(entry.getValue())));
    }
}
