package io.dsched.internal.execution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dsched.execution.ExecutionListener;
import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.JobContext;
import io.dsched.execution.JobTimeoutException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The invocation stage: a job's call within its timeout, watched for requests to stop it. */
class InvocationTests {

    private final Map<Long, String> stopRequests = new ConcurrentHashMap<>();

    private final StopRequests stops = new StopRequests(
            (Collection<Long> ids) -> Map.copyOf(this.stopRequests), Duration.ofMillis(20), Duration.ofMillis(50));

    private final List<String> started = new ArrayList<>();

    private final Invocation invocation = new Invocation(
            "node-1",
            Clock.fixed(Instant.parse("2031-01-01T00:00:05Z"), ZoneOffset.UTC),
            this.stops,
            new ExecutionListener() {
                @Override
                public void started(ExecutionRecord attempt, Instant startedAt) {
                    InvocationTests.this.started.add(attempt.jobName() + "@" + startedAt);
                }
            });

    @AfterEach
    void close() {
        this.invocation.close();
        this.stops.close();
    }

    @Test
    void aJobThatReturnsEndsWithoutFailureAndSeesItsAttempt() {
        AtomicReference<JobContext> seen = new AtomicReference<>();
        JobTarget job =
                Fixtures.job("report", Fixtures.retries(1), false, null, (context, payload) -> seen.set(context));

        Invocation.Result result = this.invocation.invoke(job, Fixtures.claim("report", 2, 42));

        assertThat(result.failure()).isNull();
        assertThat(result.timedOut()).isFalse();
        assertThat(result.stoppedBy()).isNull();
        assertThat(this.started).containsExactly("report@2031-01-01T00:00:05Z");
        assertThat(seen.get().jobName()).isEqualTo("report");
        assertThat(seen.get().attempt()).isEqualTo(2);
        assertThat(seen.get().executionId()).isEqualTo(42);
        assertThat(seen.get().nodeId()).isEqualTo("node-1");
        assertThat(seen.get().isCancelled()).isFalse();
        assertThat(seen.get().toString()).doesNotContain("payload");
    }

    @Test
    void aJobThatThrowsEndsWithWhatItThrew() {
        IllegalStateException boom = new IllegalStateException("boom");
        JobTarget job = Fixtures.job("report", Fixtures.retries(1), false, null, (context, payload) -> {
            throw boom;
        });

        assertThat(this.invocation.invoke(job, Fixtures.claim("report", 1, 1)).failure())
                .isSameAs(boom);
    }

    @Test
    void aJobPastItsTimeoutIsInterruptedAndFailsWithATimeoutAndTheWorkerStaysUsable() {
        JobTarget job = Fixtures.job("slow", Fixtures.retries(1), false, Duration.ofMillis(100), (context, payload) -> {
            // returns on the interrupt without consuming it, as careless jobs do
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!Thread.currentThread().isInterrupted() && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
        });

        Invocation.Result result = this.invocation.invoke(job, Fixtures.claim("slow", 1, 1));

        assertThat(result.timedOut()).isTrue();
        assertThat(result.failure()).isInstanceOf(JobTimeoutException.class);
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }

    @Test
    void aJobAskedToStopSeesItselfCancelledThenIsInterruptedAfterTheGrace() throws Exception {
        CountDownLatch running = new CountDownLatch(1);
        AtomicReference<Boolean> cancelledWhenInterrupted = new AtomicReference<>();
        JobTarget job = Fixtures.job("stubborn", Fixtures.retries(1), false, null, (context, payload) -> {
            running.countDown();
            try {
                new CountDownLatch(1).await(30, TimeUnit.SECONDS);
            } catch (InterruptedException ex) {
                cancelledWhenInterrupted.set(context.isCancelled());
                throw ex;
            }
        });

        CompletableFuture<Invocation.Result> result =
                CompletableFuture.supplyAsync(() -> this.invocation.invoke(job, Fixtures.claim("stubborn", 1, 9)));
        assertThat(running.await(10, TimeUnit.SECONDS)).isTrue();
        this.stopRequests.put(9L, "operator");

        Invocation.Result ended = result.get(10, TimeUnit.SECONDS);
        assertThat(ended.stoppedBy()).isEqualTo("operator");
        assertThat(ended.failure()).isInstanceOf(InterruptedException.class);
        assertThat(ended.timedOut()).isFalse();
        await().atMost(Duration.ofSeconds(5)).until(() -> cancelledWhenInterrupted.get() != null);
        assertThat(cancelledWhenInterrupted.get()).isTrue();
    }
}
