package io.dsched.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.dsched.execution.ExecutionOrigin;
import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.LoadSignal;
import io.dsched.execution.Outcome;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** What a node counts of the attempts of adaptive handlers, and asks its load signals, for its next claim. */
class LimitOutcomesTests {

    private final AtomicBoolean overloaded = new AtomicBoolean();

    private final LoadSignal failing = (handler) -> {
        throw new IllegalStateException("the signal's own source is down");
    };

    private final LimitOutcomes outcomes = new LimitOutcomes(
            "sync"::equals, List.of(this.failing, (handler) -> this.overloaded.get() && handler.equals("sync")));

    @Test
    void successesAndFailuresOfAdaptiveHandlersAreCountedUntilAClaimTakesThem() {
        finished("sync", Outcome.SUCCEEDED);
        finished("sync", Outcome.RETRY_SCHEDULED);
        finished("sync", Outcome.DEAD_LETTERED);
        // neither a success nor a failure of the job's own
        finished("sync", Outcome.LOST);
        finished("sync", Outcome.CANCELLED);
        // not adaptive
        finished("mail", Outcome.RETRY_SCHEDULED);

        assertThat(this.outcomes.take("sync")).isEqualTo(new LimitOutcomes.Counted(3, 2, 0));
        assertThat(this.outcomes.take("sync")).as("taken once").isEqualTo(LimitOutcomes.Counted.NONE);
        assertThat(this.outcomes.take("mail")).isEqualTo(LimitOutcomes.Counted.NONE);
    }

    @Test
    void countsAClaimCouldNotWriteAreGivenBackToTheNext() {
        finished("sync", Outcome.RETRY_SCHEDULED);
        LimitOutcomes.Counted taken = this.outcomes.take("sync");
        finished("sync", Outcome.SUCCEEDED);

        this.outcomes.giveBack("sync", taken);

        assertThat(this.outcomes.take("sync")).isEqualTo(new LimitOutcomes.Counted(2, 1, 0));
    }

    @Test
    void aSignalThatSaysOverloadedCountsAndOneThatFailsIsReadAsNot() {
        assertThat(this.outcomes.take("sync").signals()).isZero();
        this.overloaded.set(true);
        assertThat(this.outcomes.take("sync").signals()).isEqualTo(1);
    }

    private void finished(String handler, Outcome outcome) {
        Instant now = Instant.parse("2026-12-07T10:00:00Z");
        ExecutionRecord attempt = ExecutionRecord.waiting(
                handler, now, 1, handler + ":1", ExecutionOrigin.ONE_OFF, "node-1", now, now, null, null);
        this.outcomes.finished(
                attempt, outcome, Duration.ofMillis(5), (outcome == Outcome.SUCCEEDED) ? null : new RuntimeException());
    }
}
