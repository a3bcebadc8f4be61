package io.dsched.jobs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class OneOffTests {

    private static final Instant NOW = Instant.parse("2031-01-01T00:00:00Z");

    @Test
    void aBatchSpreadOverAWindowFallsDueEvenlyOverItEachKeepingWhatElseItWas() {
        List<OneOff> batch = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            batch.add(OneOff.of("mail", "m-" + i).withKey("k-" + i));
        }
        batch.set(1, batch.get(1).priority(7));
        batch.set(2, batch.get(2).after(Duration.ofSeconds(1)));
        batch.set(
                3,
                batch.get(3).priority(-1).at(NOW.plusSeconds(60)).withKey("k-3").uniqueFor(Duration.ofDays(1)));

        List<OneOff> spread = OneOff.spreadOver(batch, Duration.ofMinutes(4));

        assertThat(spread)
                .extracting((job) -> job.dueAt(NOW))
                .containsExactly(
                        NOW,
                        NOW.plus(Duration.ofMinutes(1)),
                        NOW.plus(Duration.ofMinutes(2)).plusSeconds(1),
                        NOW.plusSeconds(60).plus(Duration.ofMinutes(3)));
        assertThat(spread).extracting(OneOff::key).containsExactly("k-0", "k-1", "k-2", "k-3");
        assertThat(spread).extracting(OneOff::payload).containsExactly("m-0", "m-1", "m-2", "m-3");
        assertThat(spread).extracting(OneOff::priority).containsExactly(null, 7, null, -1);
        assertThat(spread).extracting(OneOff::uniqueWindow).containsExactly(null, null, null, Duration.ofDays(1));
        assertThat(OneOff.spreadOver(List.of(), Duration.ofMinutes(1))).isEmpty();
        assertThatIllegalArgumentException()
                .isThrownBy(() -> OneOff.spreadOver(batch, Duration.ofSeconds(-1)))
                .withMessageContaining("must not be negative");
    }

    @Test
    void aThousandSpreadOverTenSecondsFallDueAHundredASecond() {
        List<OneOff> batch = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            batch.add(OneOff.of("mail", null));
        }
        int[] perSecond = new int[10];
        for (OneOff job : OneOff.spreadOver(batch, Duration.ofSeconds(10))) {
            perSecond[(int) Duration.between(NOW, job.dueAt(NOW)).toSeconds()]++;
        }
        assertThat(perSecond).containsOnly(100);
    }
}
