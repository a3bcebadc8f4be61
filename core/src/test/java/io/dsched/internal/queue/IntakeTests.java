package io.dsched.internal.queue;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * How much the queue claims: as many as it has free workers, and while its attempts are short as
 * many again or more held ready, up to what the workers start within 100 ms; and when a claim that
 * found a backlog is followed by the next, without waiting for the poll, and in a batch.
 */
class IntakeTests {

    private static final Duration POLL = Duration.ofMillis(500);

    private final Intake intake = new Intake(8, POLL);

    @Test
    void aNodeClaimsNoMoreThanItHasWorkersUntilItsAttemptsAreKnownToBeShort() {
        assertThat(this.intake.free()).isEqualTo(8);
        claim(this.intake, 8, 3);
        assertThat(this.intake.free()).isEqualTo(5);
        this.intake.finished(499);
        assertThat(this.intake.capacity())
                .as("short attempts: as many again held ready")
                .isEqualTo(16);
        assertThat(this.intake.free()).isEqualTo(14);
    }

    @Test
    void theShorterTheAttemptsTheMoreAreHeldReadyUpToFourTimesTheWorkers() {
        claim(this.intake, 8, 3);
        this.intake.finished(50);
        assertThat(this.intake.capacity())
                .as("50 ms each: what 8 workers start in 100 ms held ready")
                .isEqualTo(8 + 16);
        Intake fast = new Intake(8, POLL);
        claim(fast, 8, 3);
        fast.finished(5);
        assertThat(fast.capacity())
                .as("5 ms each: at most four times the workers")
                .isEqualTo(8 + 32);
    }

    @Test
    void longAttemptsAreNotClaimedAhead() {
        claim(this.intake, 8, 1);
        this.intake.finished(POLL.toMillis());
        assertThat(this.intake.capacity()).as("as long as the poll interval").isEqualTo(8);
    }

    @Test
    void theCapacityFollowsAMovingAverageOfTheAttemptsDurations() {
        claim(this.intake, 8, 2);
        this.intake.finished(100);
        // one slow attempt among short ones does not take the held-ready places away at once
        this.intake.finished(3000);
        assertThat(this.intake.capacity()).isEqualTo(16);
        claim(this.intake, 16, 5);
        for (int i = 0; i < 5; i++) {
            this.intake.finished(3000);
        }
        assertThat(this.intake.capacity()).isEqualTo(8);
    }

    @Test
    void whileThereIsABacklogAFinishingAttemptWakesThePollerOnceAQuarterOfTheWorkersIsFree() {
        claim(this.intake, 8, 8);
        this.intake.finished(1000);
        assertThat(this.intake.free()).isEqualTo(1);
        assertThat(this.intake.finished(1000)).as("two free").isTrue();
        Intake large = new Intake(16, POLL);
        claim(large, 16, 16);
        assertThat(large.finished(1000)).as("one of sixteen free").isFalse();
        assertThat(large.finished(1000)).isFalse();
        assertThat(large.finished(1000)).isFalse();
        assertThat(large.finished(1000)).as("four of sixteen free").isTrue();
    }

    @Test
    void withManyHeldReadyAFinishingAttemptWakesThePollerOnceAQuarterOfThemIsFree() {
        claim(this.intake, 8, 8);
        this.intake.finished(5);
        // 40 places, 7 outstanding
        claim(this.intake, 33, 33);
        for (int i = 1; i < 8; i++) {
            assertThat(this.intake.finished(5)).as(i + " free").isFalse();
        }
        assertThat(this.intake.finished(5)).as("8 of 32 held ready free").isTrue();
    }

    @Test
    void aClaimUnderWayHoldsThePlacesItAskedForSoThatWhatFinishesMeanwhileWakesNoOne() {
        claim(this.intake, 8, 8);
        assertThat(this.intake.finished(5)).as("33 of 40 places free").isTrue();
        this.intake.claiming(33);
        for (int i = 1; i < 8; i++) {
            assertThat(this.intake.finished(5))
                    .as(i + " finished during the claim")
                    .isFalse();
        }
        this.intake.claimed(33, 33);
        assertThat(this.intake.free()).isEqualTo(7);
        this.intake.claiming(7);
        this.intake.claimed(7, 2);
        assertThat(this.intake.free()).as("the places a claim did not fill").isEqualTo(5);
    }

    @Test
    void whileABacklogIsHeldReadyThePollerHoldsItsClaimsUntilAQuarterIsFree() {
        claim(this.intake, 8, 8);
        this.intake.finished(5);
        claim(this.intake, 33, 33);
        assertThat(this.intake.holding()).isTrue();
        for (int i = 0; i < 7; i++) {
            this.intake.finished(5);
        }
        assertThat(this.intake.holding()).as("7 free").isTrue();
        this.intake.finished(5);
        assertThat(this.intake.holding()).as("8 free").isFalse();

        Intake slow = new Intake(8, POLL);
        claim(slow, 8, 8);
        slow.finished(1000);
        assertThat(slow.holding())
                .as("long attempts: a free worker claims at once")
                .isFalse();
        Intake drained = new Intake(8, POLL);
        claim(drained, 8, 8);
        drained.finished(5);
        claim(drained, 33, 10);
        assertThat(drained.holding()).as("no backlog").isFalse();
    }

    @Test
    void withoutABacklogAFinishingAttemptLeavesThePollerToItsPoll() {
        claim(this.intake, 8, 7);
        for (int i = 0; i < 7; i++) {
            assertThat(this.intake.finished(1000)).isFalse();
        }
    }

    @Test
    void thePollerClaimsAgainAtOnceOnlyWhenTheClaimFilledEveryFreePlaceAndEnoughHaveComeFreeSince() {
        assertThat(this.intake.waitsAfter(8, 7)).isTrue();
        assertThat(this.intake.waitsAfter(0, 0)).as("no free place").isTrue();
        claim(this.intake, 8, 8);
        assertThat(this.intake.waitsAfter(8, 8))
                .as("attempts not known to be short")
                .isFalse();
        this.intake.finished(5);
        claim(this.intake, 33, 33);
        assertThat(this.intake.waitsAfter(33, 33)).as("nothing free since").isTrue();
        for (int i = 0; i < 7; i++) {
            this.intake.finished(5);
        }
        assertThat(this.intake.waitsAfter(33, 33)).as("7 free since").isTrue();
        this.intake.finished(5);
        assertThat(this.intake.waitsAfter(33, 33))
                .as("a quarter of those held ready free since")
                .isFalse();
    }

    /** A claim of up to {@code asked} attempts that got {@code got}, as the queue makes it. */
    private static void claim(Intake intake, int asked, int got) {
        intake.claiming(asked);
        intake.claimed(asked, got);
    }
}
