package io.dsched.internal.audit;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** Which refused writes get a row of the audit log, on a clock the test moves. */
class RefusedWritesTests {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    private final SteppedClock clock = new SteppedClock(Instant.parse("2026-12-02T10:15:00Z"));

    private final RefusedWrites refusals = new RefusedWrites(this.registry, this.clock);

    @Test
    void aRequestWithoutAUserIsCountedButNeverRecorded() {
        long recorded = IntStream.range(0, 300)
                .filter((i) -> this.refusals.refused(RefusedWrites.ANONYMOUS, 401))
                .count();

        assertThat(recorded).isZero();
        assertThat(count("401")).isEqualTo(300);
    }

    @Test
    void aRefusedUserIsRecordedOnceAMinuteAndCountedEveryTime() {
        assertThat(this.refusals.refused("stranger", 403)).isTrue();
        this.clock.advance(Duration.ofSeconds(59));
        assertThat(IntStream.range(0, 299).filter((i) -> this.refusals.refused("stranger", 403)))
                .as("refusals later in the same minute")
                .isEmpty();
        assertThat(this.refusals.refused("intruder", 403))
                .as("another user in that minute")
                .isTrue();

        this.clock.advance(Duration.ofSeconds(1));
        assertThat(this.refusals.refused("stranger", 403)).as("the next minute").isTrue();
        assertThat(this.refusals.refused("stranger", 403)).isFalse();
        assertThat(count("403")).isEqualTo(303);
    }

    @Test
    void pastAThousandUsersInAMinuteFurtherOnesWaitForTheNextMinute() {
        long recorded = IntStream.range(0, 1_200)
                .filter((i) -> this.refusals.refused("user-" + i, 403))
                .count();
        assertThat(recorded).isEqualTo(1_000);
        assertThat(this.refusals.refused("user-1100", 403)).isFalse();

        this.clock.advance(Duration.ofMinutes(1));
        assertThat(this.refusals.refused("user-1100", 403)).isTrue();
    }

    @Test
    void aRefusalThatReadTheClockJustBeforeTheMinuteTurnedDoesNotOpenTheNewMinuteAgain() throws Exception {
        this.clock.advance(Duration.ofSeconds(59));
        // a request reads the clock in the last second of a minute, then its thread is descheduled
        CompletableFuture<Boolean> late =
                CompletableFuture.supplyAsync(() -> this.refusals.refused("intruder", 403), this.clock::holdOnce);
        assertThat(this.clock.read.await(10, TimeUnit.SECONDS)).isTrue();

        this.clock.advance(Duration.ofSeconds(1));
        try {
            assertThat(this.refusals.refused("stranger", 403))
                    .as("the next minute")
                    .isTrue();
        } finally {
            this.clock.resume.countDown();
        }
        assertThat(late.get(10, TimeUnit.SECONDS)).as("the late request's user").isTrue();

        assertThat(this.refusals.refused("stranger", 403))
                .as("the same user again within the new minute")
                .isFalse();
        assertThat(this.refusals.refused("intruder", 403)).isFalse();
    }

    private double count(String status) {
        return this.registry
                .get("dsched.management.refusals")
                .tag("status", status)
                .counter()
                .count();
    }

    private static final class SteppedClock extends Clock {

        private volatile Instant now;

        private volatile Thread held;

        /** Counted down once the held thread has read the clock. */
        final CountDownLatch read = new CountDownLatch(1);

        /** What the held thread waits for after reading the clock. */
        final CountDownLatch resume = new CountDownLatch(1);

        SteppedClock(Instant now) {
            this.now = now;
        }

        void advance(Duration step) {
            this.now = this.now.plus(step);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        /** Runs {@code task} on a thread of its own that is held just after it reads the clock. */
        void holdOnce(Runnable task) {
            Thread thread = new Thread(task, "held-by-the-clock");
            this.held = thread;
            thread.start();
        }

        @Override
        public Instant instant() {
            Instant now = this.now;
            if (Thread.currentThread() == this.held) {
                this.held = null;
                this.read.countDown();
                try {
                    this.resume.await(10, TimeUnit.SECONDS);
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                }
            }
            return now;
        }
    }
}
