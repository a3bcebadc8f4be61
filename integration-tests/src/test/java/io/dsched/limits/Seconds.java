package io.dsched.limits;

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
}
