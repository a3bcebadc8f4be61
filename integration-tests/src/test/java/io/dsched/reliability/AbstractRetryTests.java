package io.dsched.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.ExecutionStatus;
import io.dsched.internal.execution.FireExecutor;
import io.dsched.reliability.RetryJobs.PermanentFailure;
import io.dsched.reliability.RetryJobs.TransientFailure;
import io.dsched.test.ClusterNode;
import io.dsched.test.TestCluster;
import io.dsched.test.TestDatabases;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What {@code @Retry}'s {@code includes}, {@code excludes} and {@code jitter} do to the attempts a
 * database holds: which failures get a next attempt, and when it falls due. Run against each
 * database by a small subclass.
 */
abstract class AbstractRetryTests {

    private static final Instant FIRST = Instant.parse("2031-01-01T00:00:00Z");

    @RegisterExtension
    final TestCluster cluster = TestCluster.of(this::kind);

    private FireExecutor fires;

    protected abstract TestDatabases.Kind kind();

    @BeforeEach
    void startNode() {
        RetryJobs.FAILURES.clear();
        ClusterNode node = this.cluster.start("node-1", RetryJobs.class, Map.of());
        this.fires = node.bean(FireExecutor.class);
    }

    @Test
    void onlyIncludedFailuresAreRetriedAnExcludedOneNeverAndCausesCountToo() {
        // includes TransientFailure, excludes PermanentFailure (a TransientFailure too)
        assertThat(failWith("selective", 0, new TransientFailure("included"))).isTrue();
        assertThat(failWith("selective", 1, new IllegalStateException("wraps", new TransientFailure("included cause"))))
                .isTrue();
        assertThat(failWith("selective", 2, new IllegalStateException("not included")))
                .isFalse();
        assertThat(failWith("selective", 3, new PermanentFailure("excluded, though included")))
                .isFalse();
        assertThat(failWith("selective", 4, new IllegalStateException("wraps", new PermanentFailure("excluded cause"))))
                .isFalse();
        // excludes PermanentFailure only: every other failure is retried, but IllegalArgumentException
        assertThat(failWith("excluding", 5, new IllegalStateException("anything else")))
                .isTrue();
        assertThat(failWith("excluding", 6, new PermanentFailure("excluded"))).isFalse();
        assertThat(failWith("excluding", 7, new IllegalArgumentException("never retried")))
                .isFalse();
    }

    @Test
    void eachRetryFallsDueWithinTheJitterOfItsDelayAndTheWaitsSpreadBothWays() {
        // delay 10s, multiplier 1, jitter 2s: each wait is 8s to 12s
        List<Duration> waits = new ArrayList<>();
        for (int fire = 0; fire < 20; fire++) {
            Instant scheduledAt = FIRST.plusSeconds(fire);
            this.fires.fire("jittery", scheduledAt);
            List<ExecutionRecord> attempts = attempts("jittery", scheduledAt);
            assertThat(attempts)
                    .extracting(ExecutionRecord::status)
                    .containsExactly(ExecutionStatus.FAILED, ExecutionStatus.RETRY_SCHEDULED);
            waits.add(Duration.between(
                    attempts.get(0).finishedAt(), attempts.get(1).dueAt()));
        }
        // each instant is stored to the millisecond, on its own: a wait may read 1 ms off
        assertThat(waits)
                .allSatisfy((wait) -> assertThat(wait).isBetween(Duration.ofMillis(7_999), Duration.ofMillis(12_001)));
        // 20 waits all on one side of 10s would happen once in half a million runs
        assertThat(waits).anySatisfy((wait) -> assertThat(wait).isLessThan(Duration.ofMillis(9_999)));
        assertThat(waits).anySatisfy((wait) -> assertThat(wait).isGreaterThan(Duration.ofMillis(10_001)));
    }

    /**
     * Delivers a fire of a job that fails with the given failure.
     * @return whether a retry of it is scheduled; if not, it was dead-lettered after one attempt
     */
    private boolean failWith(String job, int fire, RuntimeException failure) {
        Instant scheduledAt = FIRST.plusSeconds(fire);
        RetryJobs.FAILURES.put(scheduledAt, failure);
        this.fires.fire(job, scheduledAt);
        List<ExecutionRecord> attempts = attempts(job, scheduledAt);
        assertThat(attempts.get(0).errorClass()).isEqualTo(failure.getClass().getName());
        if (attempts.size() == 2) {
            assertThat(attempts)
                    .extracting(ExecutionRecord::status)
                    .containsExactly(ExecutionStatus.FAILED, ExecutionStatus.RETRY_SCHEDULED);
            return true;
        }
        assertThat(attempts).singleElement().satisfies((attempt) -> {
            assertThat(attempt.status()).isEqualTo(ExecutionStatus.DEAD_LETTERED);
            assertThat(attempt.statusReason())
                    .isEqualTo("not retryable: " + failure.getClass().getSimpleName());
        });
        return false;
    }

    private List<ExecutionRecord> attempts(String job, Instant scheduledAt) {
        List<ExecutionRecord> attempts =
                new ArrayList<>(this.cluster.executions().findByIdempotencyKey(job + "@" + scheduledAt.toEpochMilli()));
        attempts.sort(Comparator.comparingInt(ExecutionRecord::attempt));
        return attempts;
    }
}
