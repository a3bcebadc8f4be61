package io.dsched.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The numbers the benchmark's tables report for repeated runs. */
class StatsTests {

    @Test
    void theMedianOfAnEvenCountIsTheMeanOfItsTwoMiddleValues() {
        assertThat(Stats.median(List.of(823, 661))).isEqualTo(742.0);
        assertThat(Stats.median(List.of(4, 1, 3, 2))).isEqualTo(2.5);
    }

    @Test
    void theMedianOfAnOddCountIsItsMiddleValue() {
        assertThat(Stats.median(List.of(338, 267, 278))).isEqualTo(278.0);
        assertThat(Stats.median(List.of(7))).isEqualTo(7.0);
    }

    @Test
    void aSpreadGivesTheMedianThenTheLowestAndHighest() {
        assertThat(Stats.spread(List.of(823, 661))).isEqualTo("742 (661–823)");
        assertThat(Stats.spread(List.of(2205, 2264, 2208))).isEqualTo("2,208 (2,205–2,264)");
    }

    @Test
    void millisecondsKeepOneDecimalInASpread() {
        assertThat(Stats.millis(2512.34)).isEqualTo("2,512.3");
        assertThat(Stats.millis(Double.NaN)).isEqualTo("n/a");
        assertThat(Stats.spread(List.of(4.26, 3.91, 12.0), Stats::millis)).isEqualTo("4.3 (3.9–12.0)");
        assertThat(Stats.spread(List.of(20, 1500, 1499), Stats::count)).isEqualTo("1,499 (20–1,500)");
    }
}
