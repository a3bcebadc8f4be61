package io.dsched.internal.execution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class RateTests {

    @Test
    void aRateIsPermitsPerAPeriodOfWholeMilliseconds() {
        assertThat(Rate.parse("50/1s")).isEqualTo(new Rate(50, Duration.ofSeconds(1)));
        assertThat(Rate.parse(" 5000 / 1h ")).isEqualTo(new Rate(5000, Duration.ofHours(1)));
        assertThat(Rate.parse("3/250ms")).isEqualTo(new Rate(3, Duration.ofMillis(250)));
        for (String bad : new String[] {"fifty/1s", "50", "50/", "0/1s", "50/0s", "5/500us", "3/1500us", "50/-1s"}) {
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> Rate.parse(bad))
                    .withMessageContaining("is not a rate");
        }
    }

    @Test
    void aRateIsWrittenInTheLargestUnitThatDividesItsPeriodAndReadBackAlike() {
        assertThat(Rate.parse("50/1s").text()).isEqualTo("50/1s");
        assertThat(Rate.parse("5000/60m").text()).isEqualTo("5000/1h");
        assertThat(Rate.parse("3/1500ms").text()).isEqualTo("3/1500ms");
        assertThat(Rate.parse("7/2d").text()).isEqualTo("7/2d");
        assertThat(Rate.parse("1/90s").text()).isEqualTo("1/90s");
        for (String text : new String[] {"50/1s", "3/1500ms", "1/90s", "7/2d"}) {
            assertThat(Rate.parse(Rate.parse(text).text())).isEqualTo(Rate.parse(text));
        }
    }
}
