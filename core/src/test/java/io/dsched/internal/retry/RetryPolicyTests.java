package io.dsched.internal.retry;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.Test;

/** The backoff of a retry policy at the extremes of its jitter, with a source of randomness that picks them. */
class RetryPolicyTests {

    private static final RetryPolicy POLICY = new RetryPolicy(
            10, Duration.ofSeconds(1), 2, Duration.ofSeconds(5), Duration.ofMillis(100), List.of(), List.of());

    @Test
    void theJitterIsTakenFromOrAddedToTheGrownAndCappedDelay() {
        assertThat(POLICY.backoff(1, lowest())).isEqualTo(Duration.ofMillis(900));
        assertThat(POLICY.backoff(1, highest())).isEqualTo(Duration.ofMillis(1100));
        assertThat(POLICY.backoff(3, lowest())).isEqualTo(Duration.ofMillis(3900));
        assertThat(POLICY.backoff(3, highest())).isEqualTo(Duration.ofMillis(4100));
        // 8s grown, capped at 5s, then jittered
        assertThat(POLICY.backoff(4, lowest())).isEqualTo(Duration.ofMillis(4900));
        assertThat(POLICY.backoff(4, highest())).isEqualTo(Duration.ofMillis(5100));
    }

    @Test
    void aJitterLargerThanTheDelayNeverMakesTheWaitNegativeAndNoJitterAsksForNoRandomness() {
        RetryPolicy wide = new RetryPolicy(
                3, Duration.ofMillis(50), 1, Duration.ofSeconds(1), Duration.ofMillis(100), List.of(), List.of());
        assertThat(wide.backoff(1, lowest())).isEqualTo(Duration.ZERO);
        assertThat(wide.backoff(1, highest())).isEqualTo(Duration.ofMillis(150));
        RetryPolicy none = new RetryPolicy(
                3, Duration.ofMillis(50), 1, Duration.ofSeconds(1), Duration.ZERO, List.of(), List.of());
        assertThat(none.backoff(1, (RandomGenerator) () -> {
                    throw new AssertionError("no jitter, no random number");
                }))
                .isEqualTo(Duration.ofMillis(50));
    }

    /** Picks the lowest value of every range it is asked for. */
    private static RandomGenerator lowest() {
        return new Extreme(false);
    }

    /** Picks the highest value of every range it is asked for. */
    private static RandomGenerator highest() {
        return new Extreme(true);
    }

    private record Extreme(boolean high) implements RandomGenerator {

        @Override
        public long nextLong() {
            throw new UnsupportedOperationException("only ranges are asked for");
        }

        @Override
        public long nextLong(long origin, long bound) {
            return this.high ? bound - 1 : origin;
        }
    }
}
