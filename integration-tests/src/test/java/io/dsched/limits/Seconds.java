package io.dsched.limits;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/** How many instants fall in one second, for the tests of rates. */
final class Seconds {

    private Seconds() {}

    /**
     * The most instants in any second, of instants in order.
     * @param instants the instants, in order
     * @return the most in a second
     */
    static int mostInASecond(List<Instant> instants) {
        int most = 0;
        for (int first = 0, last = 0; first < instants.size(); first++) {
            while (last < instants.size()
                    && instants.get(last).isBefore(instants.get(first).plusSeconds(1))) {
                last++;
            }
            most = Math.max(most, last - first);
        }
        return most;
    }

    /**
     * How long, of the time the instants span, none came for longer than {@code refill}: the sum,
     * over the gaps between consecutive instants longer than it, of what each lasted beyond it. A
     * bucket that a claim leaves empty is full again after {@code refill}; for the rest of such a
     * gap its tokens went unused because no node claimed (a machine stalled its nodes), not
     * because the limit held them back.
     * @param instants the instants, in order
     * @param refill how long the bucket takes to fill
     * @return the time beyond {@code refill} in every longer gap
     */
    static Duration stalled(List<Instant> instants, Duration refill) {
        Duration stalled = Duration.ZERO;
        for (int i = 1; i < instants.size(); i++) {
            Duration gap = Duration.between(instants.get(i - 1), instants.get(i));
            if (gap.compareTo(refill) > 0) {
                stalled = stalled.plus(gap.minus(refill));
            }
        }
        return stalled;
    }
}
