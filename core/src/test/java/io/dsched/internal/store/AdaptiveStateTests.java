package io.dsched.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The rule an adaptive limit moves by, one claim at a time. */
class AdaptiveStateTests {

    private static final TargetLimits.Adaptive RULE = new TargetLimits.Adaptive(0.5, Duration.ofSeconds(10), 4, 2);

    private static final Instant T0 = Instant.parse("2026-12-07T10:00:00Z");

    @Test
    void aNewLimitStartsAtTheLimitInForceAndKeepsWhatWasCounted() {
        AdaptiveState next = new AdaptiveState(0, null, 0, 0, 0).next(RULE, 12, counted(3, 1, 0), T0);

        assertThat(next).isEqualTo(new AdaptiveState(12, T0, 3, 1, 0));
    }

    @Test
    void withinItsWindowTheLimitHoldsAndTheCountsAddUp() {
        AdaptiveState next = new AdaptiveState(12, T0, 3, 1, 0).next(RULE, 12, counted(5, 5, 0), T0.plusSeconds(9));

        assertThat(next).isEqualTo(new AdaptiveState(12, T0, 8, 6, 0));
    }

    @Test
    void aWindowWhoseFailuresReachTheRatioOfEnoughOutcomesHalvesItNotBelowItsLeast() {
        Instant end = T0.plusSeconds(10);

        assertThat(new AdaptiveState(12, T0, 2, 2, 0).next(RULE, 12, counted(2, 0, 0), end))
                .as("2 failed of 4")
                .isEqualTo(new AdaptiveState(6, end, 0, 0, 0));
        assertThat(new AdaptiveState(3, T0, 10, 9, 0).next(RULE, 12, Counted.NONE, end))
                .as("halved to 1, held at its least")
                .isEqualTo(new AdaptiveState(2, end, 0, 0, 0));
    }

    @Test
    void tooFewOutcomesFailingNeitherLowerNorRaiseIt() {
        Instant end = T0.plusSeconds(10);

        assertThat(new AdaptiveState(6, T0, 3, 3, 0).next(RULE, 12, Counted.NONE, end))
                .isEqualTo(new AdaptiveState(6, end, 0, 0, 0));
    }

    @Test
    void aWindowOfFewerFailuresRaisesItByOneUpToTheLimitInForce() {
        Instant end = T0.plusSeconds(10);

        assertThat(new AdaptiveState(6, T0, 10, 4, 0).next(RULE, 12, Counted.NONE, end))
                .isEqualTo(new AdaptiveState(7, end, 0, 0, 0));
        assertThat(new AdaptiveState(12, T0, 10, 0, 0).next(RULE, 12, Counted.NONE, end))
                .isEqualTo(new AdaptiveState(12, end, 0, 0, 0));
        assertThat(new AdaptiveState(6, T0, 0, 0, 0).next(RULE, 12, Counted.NONE, end))
                .as("a window in which nothing ended")
                .isEqualTo(new AdaptiveState(6, end, 0, 0, 0));
    }

    @Test
    void aLoadSignalHalvesItWhateverTheOutcomes() {
        Instant end = T0.plusSeconds(10);

        assertThat(new AdaptiveState(12, T0, 10, 0, 0).next(RULE, 12, counted(0, 0, 1), end))
                .isEqualTo(new AdaptiveState(6, end, 0, 0, 0));
    }

    @Test
    void aLimitLoweredAtRunTimeCapsItAtOnce() {
        assertThat(new AdaptiveState(12, T0, 0, 0, 0).next(RULE, 5, Counted.NONE, T0.plusSeconds(1)))
                .isEqualTo(new AdaptiveState(5, T0, 0, 0, 0));
        assertThat(new AdaptiveState(12, T0, 10, 10, 0).next(RULE, 3, Counted.NONE, T0.plusSeconds(10)))
                .as("its least above the limit in force")
                .isEqualTo(new AdaptiveState(2, T0.plusSeconds(10), 0, 0, 0));
    }

    @Test
    void aWindowBegunByANodeMoreThanAWindowAheadBeginsAgainAtThisNodesClaimKeepingItsCounts() {
        AdaptiveState ahead = new AdaptiveState(8, T0.plusSeconds(60), 3, 2, 0);

        assertThat(ahead.next(RULE, 12, counted(1, 1, 0), T0)).isEqualTo(new AdaptiveState(8, T0, 4, 3, 0));
        assertThat(ahead.next(RULE, 12, Counted.NONE, T0.plusSeconds(55)))
                .as("less than a window ahead: its window goes on")
                .isEqualTo(new AdaptiveState(8, T0.plusSeconds(60), 3, 2, 0));
    }

    private static LimitOutcomes.Counted counted(int outcomes, int failures, int signals) {
        return new LimitOutcomes.Counted(outcomes, failures, signals);
    }

    private static final class Counted {

        static final LimitOutcomes.Counted NONE = LimitOutcomes.Counted.NONE;
    }
}
