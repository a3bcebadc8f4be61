package io.dsched.cancel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dsched.execution.Cancellation;
import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.ExecutionStatus;
import io.dsched.execution.JobTimeoutException;
import io.dsched.jobs.JobScheduler;
import io.dsched.jobs.OneOff;
import io.dsched.jobs.ScheduledJob;
import io.dsched.test.ClusterNode;
import io.dsched.test.TestCluster;
import io.dsched.test.TestDatabases;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Cancel and stop: a waiting attempt cancelled never runs, a running one on another node is
 * stopped cooperatively or by interrupt and ends {@code CANCELLED}, never retried nor
 * dead-lettered; cancels racing claims and completions leave each attempt in one consistent
 * state. Run against each database by a small subclass.
 */
abstract class AbstractCancelTests {

    @RegisterExtension
    final TestCluster cluster = TestCluster.of(this::kind);

    protected abstract TestDatabases.Kind kind();

    @BeforeEach
    void resetJobs() {
        CancelJobs.reset();
    }

    @AfterEach
    void releaseJobs() {
        CancelJobs.BLOCKED.countDown();
    }

    @Test
    void aWaitingOneOffCancelledNeverRunsAndCancellingAgainChangesNothing() {
        ClusterNode api = start("api", Map.of("dsched.run-jobs", false));
        start("worker", Map.of());
        JobScheduler scheduler = api.bean(JobScheduler.class);
        ScheduledJob doomed = scheduler.submit(
                OneOff.of("quick", null).after(Duration.ofMillis(500)).withKey("order-42"));
        ScheduledJob control = scheduler.submit(OneOff.of("quick", null).after(Duration.ofMillis(500)));

        Cancellation cancelled = scheduler.cancelOneOff("quick", "order-42");

        assertThat(cancelled)
                .isEqualTo(new Cancellation(
                        doomed.executionId(), ExecutionStatus.SCHEDULED, Cancellation.Result.CANCELLED));
        // the control, due at the same time, runs: the cancelled one would have
        await().atMost(Duration.ofSeconds(10)).until(() -> status(control.executionId()) == ExecutionStatus.SUCCEEDED);
        await().during(Duration.ofMillis(1000))
                .atMost(Duration.ofSeconds(3))
                .until(() -> CancelJobs.seen(doomed.executionId()).isEmpty()
                        && status(doomed.executionId()) == ExecutionStatus.CANCELLED);
        ExecutionRecord row = row(doomed.executionId());
        assertThat(row.statusReason()).isEqualTo("cancelled by the application on node api");
        assertThat(row.finishedAt()).isNotNull();
        assertThat(scheduler.cancel(doomed.executionId(), "someone else"))
                .isEqualTo(new Cancellation(
                        doomed.executionId(), ExecutionStatus.CANCELLED, Cancellation.Result.ALREADY_CANCELLED));
        assertThat(row(doomed.executionId()).statusReason()).isEqualTo("cancelled by the application on node api");
        assertThat(scheduler.cancel(control.executionId()).result()).isEqualTo(Cancellation.Result.ALREADY_ENDED);
        assertThat(status(control.executionId())).isEqualTo(ExecutionStatus.SUCCEEDED);
        assertThat(scheduler.cancel(987_654_321L).result()).isEqualTo(Cancellation.Result.NOT_FOUND);
        assertThat(scheduler.cancelOneOff("quick", "no-such-key").result()).isEqualTo(Cancellation.Result.NOT_FOUND);
    }

    @Test
    void aRetryCancelledRunsNoFurtherAttemptAndIsNotDeadLettered() {
        ClusterNode api = start("api", Map.of("dsched.run-jobs", false));
        start("worker", Map.of());
        JobScheduler scheduler = api.bean(JobScheduler.class);
        ScheduledJob job = scheduler.submit(OneOff.of("failing-once", null));
        // submitted without a key: one of its own, a UUID of version 7
        assertThat(UUID.fromString(job.idempotencyKey().substring("failing-once:".length()))
                        .version())
                .isEqualTo(7);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> attempts(job.idempotencyKey()).size() == 2
                        && attempts(job.idempotencyKey()).get(1).status() == ExecutionStatus.RETRY_SCHEDULED);
        long retry = attempts(job.idempotencyKey()).get(1).id();

        Cancellation cancelled = scheduler.cancelByKey(job.idempotencyKey(), "ops");

        assertThat(cancelled)
                .isEqualTo(new Cancellation(retry, ExecutionStatus.RETRY_SCHEDULED, Cancellation.Result.CANCELLED));
        // past the retry's due time (3 s after the failure), and then some: nothing runs
        await().during(Duration.ofMillis(3500))
                .atMost(Duration.ofSeconds(6))
                .until(() -> attempts(job.idempotencyKey()).size() == 2
                        && CancelJobs.seen(retry).isEmpty());
        assertThat(attempts(job.idempotencyKey()))
                .extracting(ExecutionRecord::status)
                .containsExactly(ExecutionStatus.FAILED, ExecutionStatus.CANCELLED);
        assertThat(row(retry).statusReason()).isEqualTo("cancelled by ops");
        assertThat(deadLetters()).isZero();
    }

    @Test
    void aCooperativeJobRunningOnAnotherNodeSeesItsContextCancelledAndEndsCancelledWithinASecond() {
        ClusterNode api = start("api", Map.of("dsched.run-jobs", false));
        ClusterNode worker = start("worker", Map.of());
        JobScheduler scheduler = api.bean(JobScheduler.class);
        long id = scheduler.submit(OneOff.of("cooperative", null)).executionId();
        await().atMost(Duration.ofSeconds(10)).until(() -> CancelJobs.seen(id).contains("ran on worker"));

        long asked = System.nanoTime();
        Cancellation stop = scheduler.cancel(id, "ops");
        Instant askedAgain = Instant.now();
        Cancellation again = scheduler.cancel(id, "someone else");
        await().atMost(Duration.ofSeconds(1))
                .pollInterval(Duration.ofMillis(10))
                .until(() -> status(id) == ExecutionStatus.CANCELLED);
        Duration latency = Duration.ofNanos(System.nanoTime() - asked);

        System.out.println(
                "Cancel latency of a cooperative job on another node (" + kind() + "): " + latency.toMillis() + " ms");
        assertThat(stop).isEqualTo(new Cancellation(id, ExecutionStatus.RUNNING, Cancellation.Result.STOP_REQUESTED));
        // asked again while the stop is under way, or, on a loaded machine, once the job already ended
        if (again.result() == Cancellation.Result.ALREADY_CANCELLED) {
            assertThat(row(id).finishedAt()).isBeforeOrEqualTo(askedAgain.plusMillis(50));
        } else {
            assertThat(again).isEqualTo(stop);
        }
        assertThat(CancelJobs.seen(id)).containsExactly("ran on worker", "cancelled on worker");
        ExecutionRecord row = row(id);
        assertThat(row.nodeId()).isEqualTo("worker");
        assertThat(row.statusReason()).isEqualTo("cancelled by ops");
        assertThat(row.errorClass()).isNull();
        assertThat(new JdbcTemplate(this.cluster.observer())
                        .queryForObject("SELECT requested_by FROM dsched_cancel_request", String.class))
                .isEqualTo("ops");
        await().during(Duration.ofMillis(500))
                .atMost(Duration.ofSeconds(2))
                .until(() -> attempts(row.idempotencyKey()).size() == 1);
        assertThat(deadLetters()).isZero();
        assertThat(scheduler.cancel(id).result()).isEqualTo(Cancellation.Result.ALREADY_CANCELLED);
        await().atMost(Duration.ofSeconds(2)).until(() -> cancelledCount(worker, "cooperative") == 1);
    }

    @Test
    void aJobThatIgnoresTheRequestIsInterruptedAfterTheGraceAndEndsCancelled() {
        ClusterNode api = start("api", Map.of("dsched.run-jobs", false));
        start("worker", Map.of("dsched.execution.cancel-grace", "500ms"));
        JobScheduler scheduler = api.bean(JobScheduler.class);
        long id = scheduler.submit(OneOff.of("sleepy", null)).executionId();
        await().atMost(Duration.ofSeconds(10)).until(() -> CancelJobs.seen(id).contains("ran on worker"));

        long asked = System.nanoTime();
        assertThat(scheduler.cancel(id, "ops").result()).isEqualTo(Cancellation.Result.STOP_REQUESTED);
        await().atMost(Duration.ofSeconds(3)).until(() -> status(id) == ExecutionStatus.CANCELLED);
        Duration latency = Duration.ofNanos(System.nanoTime() - asked);

        assertThat(latency).isGreaterThanOrEqualTo(Duration.ofMillis(500));
        assertThat(CancelJobs.seen(id)).containsExactly("ran on worker", "interrupted on worker");
        ExecutionRecord row = row(id);
        assertThat(row.errorClass()).isEqualTo(InterruptedException.class.getName());
        assertThat(row.statusReason()).isEqualTo("cancelled by ops");
        await().during(Duration.ofMillis(500))
                .atMost(Duration.ofSeconds(2))
                .until(() -> attempts(row.idempotencyKey()).size() == 1);
        assertThat(deadLetters()).isZero();
    }

    @Test
    void aJobThatIgnoresTheRequestAndItsInterruptsEndsCancelledAtItsTimeoutAndIsNotRetried() {
        ClusterNode api = start("api", Map.of("dsched.run-jobs", false));
        start("worker", Map.of("dsched.execution.cancel-grace", "200ms"));
        JobScheduler scheduler = api.bean(JobScheduler.class);
        long id = scheduler.submit(OneOff.of("deaf", null)).executionId();
        await().atMost(Duration.ofSeconds(10)).until(() -> CancelJobs.seen(id).contains("ran on worker"));

        assertThat(scheduler.cancel(id, "ops").result()).isEqualTo(Cancellation.Result.STOP_REQUESTED);
        await().atMost(Duration.ofSeconds(5)).until(() -> status(id) == ExecutionStatus.CANCELLED);

        // interrupted after the grace and again at its timeout, and ignored both
        assertThat(CancelJobs.seen(id)).startsWith("ran on worker").contains("interrupt ignored on worker");
        assertThat(CancelJobs.seen(id).stream().filter("interrupt ignored on worker"::equals))
                .hasSize(2);
        ExecutionRecord row = row(id);
        assertThat(row.errorClass()).isEqualTo(JobTimeoutException.class.getName());
        assertThat(row.statusReason()).isEqualTo("cancelled by ops");
        await().during(Duration.ofMillis(700))
                .atMost(Duration.ofSeconds(2))
                .until(() -> attempts(row.idempotencyKey()).size() == 1);
        assertThat(deadLetters()).isZero();
    }

    @Test
    void aFailureWrittenAfterAStopWasRequestedButBeforeTheNodeSawItEndsCancelledAndIsNotRetried() {
        ClusterNode api = start("api", Map.of("dsched.run-jobs", false));
        // this node never reads the requests in time: only the write of the outcome finds it
        start("worker", Map.of("dsched.execution.cancel-poll-interval", "1h"));
        JobScheduler scheduler = api.bean(JobScheduler.class);
        long id = scheduler.submit(OneOff.of("blocked", null)).executionId();
        await().atMost(Duration.ofSeconds(10)).until(() -> CancelJobs.seen(id).contains("ran on worker"));

        assertThat(scheduler.cancel(id, "ops").result()).isEqualTo(Cancellation.Result.STOP_REQUESTED);
        CancelJobs.BLOCKED.countDown();

        await().atMost(Duration.ofSeconds(5)).until(() -> status(id) == ExecutionStatus.CANCELLED);
        ExecutionRecord row = row(id);
        assertThat(row.errorClass()).isEqualTo(IllegalStateException.class.getName());
        assertThat(row.statusReason()).isEqualTo("cancelled by ops");
        assertThat(CancelJobs.seen(id)).containsExactly("ran on worker");
        await().during(Duration.ofMillis(700))
                .atMost(Duration.ofSeconds(2))
                .until(() -> attempts(row.idempotencyKey()).size() == 1);
        assertThat(deadLetters()).isZero();
    }

    @Test
    void cancelsRacingClaimsAndCompletionsOnTwoNodesLeaveEveryAttemptInOneConsistentState() {
        ClusterNode one = start("node-1", Map.of());
        start("node-2", Map.of());
        JobScheduler scheduler = one.bean(JobScheduler.class);
        List<OneOff> requests = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            requests.add(OneOff.of("quick", null));
        }
        List<ScheduledJob> jobs = scheduler.submitAll(requests);

        // the nodes claim the oldest first, the cancels start from the newest: they meet on the way
        Map<Long, Cancellation.Result> results = new LinkedHashMap<>();
        for (int i = jobs.size() - 1; i >= 0; i--) {
            long id = jobs.get(i).executionId();
            results.put(id, scheduler.cancel(id, "ops").result());
        }

        await().atMost(Duration.ofSeconds(30)).until(() -> jobs.stream()
                .allMatch((job) -> status(job.executionId()).isTerminal()));
        Map<Cancellation.Result, Integer> tally = new EnumMap<>(Cancellation.Result.class);
        for (ScheduledJob job : jobs) {
            long id = job.executionId();
            Cancellation.Result result = results.get(id);
            tally.merge(result, 1, Integer::sum);
            ExecutionStatus status = status(id);
            List<String> seen = CancelJobs.seen(id);
            assertThat(attempts(job.idempotencyKey())).as("attempts of %d", id).hasSize(1);
            switch (result) {
                case CANCELLED -> {
                    assertThat(status).as("%d", id).isEqualTo(ExecutionStatus.CANCELLED);
                    assertThat(seen).as("%d", id).isEmpty();
                }
                case STOP_REQUESTED -> {
                    assertThat(status).as("%d", id).isIn(ExecutionStatus.CANCELLED, ExecutionStatus.SUCCEEDED);
                    assertThat(seen).as("%d", id).hasSize(1);
                }
                case ALREADY_ENDED -> {
                    assertThat(status).as("%d", id).isEqualTo(ExecutionStatus.SUCCEEDED);
                    assertThat(seen).as("%d", id).hasSize(1);
                }
                default -> throw new AssertionError(id + ": " + result);
            }
        }
        System.out.println("Cancels racing claims and completions (" + kind() + "): " + tally);
        assertThat(deadLetters()).isZero();
    }

    private long cancelledCount(ClusterNode node, String job) {
        Timer timer = node.bean(MeterRegistry.class)
                .find("dsched.execution")
                .tags("job", job, "outcome", "cancelled")
                .timer();
        return (timer != null) ? timer.count() : 0;
    }

    private ExecutionStatus status(long id) {
        return row(id).status();
    }

    private ExecutionRecord row(long id) {
        return this.cluster.executions().findById(id).orElseThrow();
    }

    private List<ExecutionRecord> attempts(String key) {
        return this.cluster.executions().findByIdempotencyKey(key);
    }

    private long deadLetters() {
        return new JdbcTemplate(this.cluster.observer())
                .queryForObject("SELECT COUNT(*) FROM dsched_dead_letter", Long.class);
    }

    private ClusterNode start(String id, Map<String, Object> properties) {
        Map<String, Object> all = new LinkedHashMap<>();
        all.put("dsched.queue.poll-interval", "100ms");
        all.put("dsched.recovery.heartbeat-interval", "250ms");
        all.put("dsched.recovery.node-timeout", "2s");
        all.put("dsched.history.cleanup-cron", "0 0 0 1 1 *");
        all.putAll(properties);
        return this.cluster.start(id, CancelJobs.class, all);
    }
}
