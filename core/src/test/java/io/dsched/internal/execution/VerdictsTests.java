package io.dsched.internal.execution;

import static org.assertj.core.api.Assertions.assertThat;

import io.dsched.execution.ExecutionOrigin;
import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.ExecutionStatus;
import io.dsched.execution.JobTimeoutException;
import io.dsched.retry.NonRetryableJobException;
import java.time.Duration;
import java.time.Instant;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

/** The decision stage: what follows from how an attempt's job ended. */
class VerdictsTests {

    private static final Instant STARTED = Fixtures.FIRE.plusSeconds(1);

    private static final Instant FINISHED = STARTED.plusMillis(250);

    private final Verdicts verdicts = new Verdicts("node-1", RandomGenerator.of("L64X128MixRandom"));

    private final JobTarget threeAttempts = Fixtures.job("report", Fixtures.retries(3), false, null, (c, p) -> {});

    @Test
    void aJobThatReturnsSucceeds() {
        assertThat(decide(1, null, false, null)).isInstanceOf(Verdict.Succeeded.class);
    }

    @Test
    void aRequestToStopWinsOverAFailureAndOverASuccess() {
        assertThat(decide(1, new IllegalStateException("boom"), false, "operator"))
                .isEqualTo(new Verdict.Stopped("operator"));
        assertThat(decide(1, null, false, "operator")).isEqualTo(new Verdict.Stopped("operator"));
    }

    @Test
    void aFailureWithAttemptsLeftSchedulesTheNextAfterTheBackoffFromItsEnd() {
        Verdict verdict = decide(2, new IllegalStateException("boom"), false, null);

        assertThat(verdict).isInstanceOfSatisfying(Verdict.Retry.class, (retry) -> {
            assertThat(retry.status()).isEqualTo(ExecutionStatus.FAILED);
            // 2 s, doubled once for the second attempt
            assertThat(retry.backoff()).isEqualTo(Duration.ofSeconds(4));
            ExecutionRecord next = retry.next();
            assertThat(next.attempt()).isEqualTo(3);
            assertThat(next.origin()).isEqualTo(ExecutionOrigin.RETRY);
            assertThat(next.status()).isEqualTo(ExecutionStatus.RETRY_SCHEDULED);
            assertThat(next.dueAt()).isEqualTo(FINISHED.plusSeconds(4));
            assertThat(next.scheduledAt()).isEqualTo(Fixtures.FIRE);
            assertThat(next.idempotencyKey()).isEqualTo(claim(2).idempotencyKey());
        });
    }

    @Test
    void aTimeoutIsRetriedAsTimedOut() {
        Verdict verdict = decide(1, new JobTimeoutException("report", Duration.ofSeconds(1)), true, null);

        assertThat(verdict).isInstanceOfSatisfying(Verdict.Retry.class, (retry) -> assertThat(retry.status())
                .isEqualTo(ExecutionStatus.TIMED_OUT));
    }

    @Test
    void theLastAttemptsFailureIsDeadLettered() {
        assertThat(decide(3, new IllegalStateException("boom"), false, null))
                .isEqualTo(new Verdict.DeadLetter(ExecutionStatus.FAILED, "no retry left after 3 attempts"));
        assertThat(decide(3, new JobTimeoutException("report", Duration.ofSeconds(1)), true, null))
                .isEqualTo(new Verdict.DeadLetter(ExecutionStatus.TIMED_OUT, "no retry left after 3 attempts"));
    }

    @Test
    void aFailureThatIsNotRetryableIsDeadLetteredAtOnce() {
        assertThat(decide(1, new NonRetryableJobException("bad input"), false, null))
                .isEqualTo(new Verdict.DeadLetter(ExecutionStatus.FAILED, "not retryable: NonRetryableJobException"));
    }

    private Verdict decide(int attempt, Throwable failure, boolean timedOut, String stoppedBy) {
        return this.verdicts.decide(
                this.threeAttempts,
                claim(attempt),
                new Invocation.Result(STARTED, FINISHED, failure, timedOut, stoppedBy));
    }

    private static ExecutionRecord claim(int attempt) {
        return Fixtures.claim("report", attempt, 7);
    }
}
