package io.dsched.internal.logs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class LogBufferTests {

    @Test
    void keepsEveryEventOnALineOfItsOwnWhileTheyFit() {
        LogBuffer buffer = new LogBuffer(7, 64);
        assertThat(buffer.isEmpty()).isTrue();

        buffer.append("first");
        buffer.append("second\n\tat Caller.java:1");

        assertThat(buffer.isEmpty()).isFalse();
        assertThat(buffer.isTruncated()).isFalse();
        assertThat(buffer.text()).isEqualTo("first\nsecond\n\tat Caller.java:1\n");
        assertThat(buffer.executionId()).isEqualTo(7);
    }

    @Test
    void keepsTheFirstBytesCutsTheLineThatDoesNotFitAndCountsWhatFollows() {
        LogBuffer buffer = new LogBuffer(7, 20);

        buffer.append("0123456789");
        buffer.append("abcdefghijklmnop");
        buffer.append("left out");
        buffer.leaveOut();

        assertThat(buffer.isTruncated()).isTrue();
        assertThat(buffer.text())
                .isEqualTo("0123456789\nabcdefgh\n… truncated at 20 bytes: 2 more log events left out\n");
    }

    @Test
    void anEventThatFitsExactlyIsNotTruncation() {
        LogBuffer buffer = new LogBuffer(7, 6);

        buffer.append("12345");

        assertThat(buffer.isTruncated()).isFalse();
        buffer.append("x");
        assertThat(buffer.isTruncated()).isTrue();
        assertThat(buffer.text()).isEqualTo("12345\n… truncated at 6 bytes: 1 more log event left out\n");
    }

    @Test
    void countsBytesOfUtf8AndNeverCutsACharacterInTwo() {
        // é takes 2 bytes and 🧾 (a surrogate pair) 4: 1 + 2 + 4 = 7 bytes of text, then the line end
        LogBuffer buffer = new LogBuffer(7, 10);

        buffer.append("aé🧾");
        buffer.append("é🧾");

        String kept = buffer.text().substring(0, buffer.text().indexOf('…'));
        assertThat(kept).isEqualTo("aé🧾\n");
        assertThat(kept.getBytes(StandardCharsets.UTF_8)).hasSizeLessThanOrEqualTo(10);

        LogBuffer tight = new LogBuffer(7, 12);
        tight.append("aé🧾");
        tight.append("é🧾");
        assertThat(tight.text()).startsWith("aé🧾\né\n…");
    }

    @Test
    void aBufferOfNoBytesKeepsNothingButSaysSo() {
        LogBuffer buffer = new LogBuffer(7, 0);

        buffer.append("anything");

        assertThat(buffer.isEmpty()).isFalse();
        assertThat(buffer.text()).isEqualTo("… truncated at 0 bytes: 1 more log event left out\n");
    }
}
