package io.dsched.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The order in which the contestants of a workload run. */
class RotationTests {

    @Test
    void eachRepetitionStartsWithTheNextContestant() {
        List<String> contestants = List.of("dsched", "quartz", "db-scheduler");
        assertThat(Harness.rotated(contestants, 0)).containsExactly("dsched", "quartz", "db-scheduler");
        assertThat(Harness.rotated(contestants, 1)).containsExactly("quartz", "db-scheduler", "dsched");
        assertThat(Harness.rotated(contestants, 2)).containsExactly("db-scheduler", "dsched", "quartz");
        assertThat(Harness.rotated(contestants, 3)).containsExactly("dsched", "quartz", "db-scheduler");
        assertThat(Harness.rotated(List.of(), 1)).isEmpty();
    }
}
