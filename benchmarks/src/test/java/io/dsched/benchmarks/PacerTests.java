package io.dsched.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** W5's fixed-rate submissions: the plan a worker is given, the keys, and the schedule kept. */
class PacerTests {

    @Test
    void aPlanTravelsToAWorkerAsOneLine() {
        Pacer.Plan plan = new Pacer.Plan(1_767_225_600_000L, 1750, 1, 2, 20_000);
        assertThat(plan.command()).isEqualTo("SUBMIT 1767225600000 1750 1 2 20000");
        assertThat(Pacer.Plan.parse(plan.command())).isEqualTo(plan);
        assertThatThrownBy(() -> Pacer.Plan.parse("STOP")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aKeyCarriesItsIndexAndWhenItWasSubmitted() {
        Pacer.Key key = Pacer.Key.parse("17@1767225600123456");
        assertThat(key).isEqualTo(new Pacer.Key(17, 1_767_225_600_123_456L));
        assertThat(key.toString()).isEqualTo("17@1767225600123456");
        // W1's keys, and anything else, are not a pacer's
        assertThat(Pacer.Key.parse("17")).isNull();
        assertThat(Pacer.Key.parse("bench-1@x")).isNull();
    }

    @Test
    void aSubmitterTakesEveryStrideThIndexNeverEarlyAndCatchesUpAfterASlowCall() throws Exception {
        Pacer.Plan plan = new Pacer.Plan(System.currentTimeMillis() + 50, 10, 1, 2, 10_000);
        List<Pacer.Key> keys = new ArrayList<>();
        int submitted = Pacer.run(plan, (key) -> {
            keys.add(Pacer.Key.parse(key));
            if (keys.size() == 1) {
                Thread.sleep(40);
            }
        });
        assertThat(submitted).isEqualTo(5);
        assertThat(keys).extracting(Pacer.Key::index).containsExactly(1, 3, 5, 7, 9);
        assertThat(keys).allSatisfy((key) -> assertThat(key.behindMicros(plan)).isNotNegative());
        // index 3 fell due 20 ms after index 1, whose call took 40 ms: it went at once, 20 ms or more late
        assertThat(keys.get(1).behindMicros(plan)).isGreaterThanOrEqualTo(20_000);
    }
}
