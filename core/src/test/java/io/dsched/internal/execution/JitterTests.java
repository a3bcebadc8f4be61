package io.dsched.internal.execution;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class JitterTests {

    private static final Instant MIDNIGHT = Instant.parse("2031-01-01T00:00:00Z");

    private static final Duration WINDOW = Duration.ofSeconds(10);

    @Test
    void aFiresOffsetIsTheSameWhereverItIsWorkedOutAndWithinTheWindow() {
        Instant start = Jitter.startOf("report", MIDNIGHT, WINDOW);
        assertThat(Jitter.startOf("report", MIDNIGHT, WINDOW)).isEqualTo(start);
        assertThat(start).isBetween(MIDNIGHT, MIDNIGHT.plus(WINDOW).minusMillis(1));
        assertThat(Jitter.startOf("report", MIDNIGHT, Duration.ZERO)).isEqualTo(MIDNIGHT);
        assertThat(Jitter.reason(MIDNIGHT, MIDNIGHT.plusMillis(7312), WINDOW))
                .isEqualTo("staggered: due 7312 ms after its time, within a jitter of 10000 ms");
    }

    @Test
    void aFireQueuedForAnotherNodeIsDueAtItsOffsetIfItsJobIsStaggeredElseAtOnce() {
        JobTarget staggered = new JobTarget(
                "report",
                "reports",
                Fixtures.retries(1),
                null,
                true,
                null,
                null,
                WINDOW,
                null,
                (context, payload) -> {});
        Instant now = MIDNIGHT.plusMillis(1);
        assertThat(Jitter.dueAt("report", MIDNIGHT, java.util.Optional.of(staggered), now))
                .isEqualTo(Jitter.startOf("report", MIDNIGHT, WINDOW));
        assertThat(Jitter.dueAt("report", MIDNIGHT, java.util.Optional.of(Fixtures.inGroup("report", "reports")), now))
                .isEqualTo(now);
        assertThat(Jitter.dueAt("report", MIDNIGHT, java.util.Optional.empty(), now))
                .isEqualTo(now);
        // an offset already past when it is queued: due at once
        assertThat(Jitter.dueAt("report", MIDNIGHT, java.util.Optional.of(staggered), MIDNIGHT.plus(WINDOW)))
                .isEqualTo(MIDNIGHT.plus(WINDOW));
    }

    @Test
    void theFiresOfManyJobsAtOneTimeSpreadEvenlyOverTheWindowAndAJobsFiresDoNotKeepOneOffset() {
        int jobs = 1000;
        int[] perSecond = new int[10];
        for (int i = 0; i < jobs; i++) {
            Instant start = Jitter.startOf("job-" + i, MIDNIGHT, WINDOW);
            perSecond[(int) Duration.between(MIDNIGHT, start).toSeconds()]++;
        }
        for (int second = 0; second < perSecond.length; second++) {
            // 100 a second on average: none far from it
            assertThat(perSecond[second]).as("second %d", second).isBetween(70, 130);
        }
        long distinct = java.util.stream.IntStream.range(0, 20)
                .mapToObj((fire) -> Jitter.startOf("report", MIDNIGHT.plusSeconds(60L * fire), WINDOW))
                .map((start) -> Duration.between(MIDNIGHT, start).toMillis() % WINDOW.toMillis())
                .distinct()
                .count();
        assertThat(distinct).as("offsets of one job's 20 fires").isGreaterThan(15);
    }
}
