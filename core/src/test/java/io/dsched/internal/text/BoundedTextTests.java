package io.dsched.internal.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Text cut to fit a bounded column: never longer than the column, and marked where it was cut. */
class BoundedTextTests {

    @Test
    void textThatFitsIsWrittenAsItIs() {
        assertThat(BoundedText.cut(null, 10)).isNull();
        assertThat(BoundedText.cut("", 10)).isEmpty();
        assertThat(BoundedText.cut("0123456789", 10)).isEqualTo("0123456789");
    }

    @Test
    void longerTextIsCutToTheColumnsLengthAndEndsWithAnEllipsis() {
        String message = "x".repeat(2000) + "y";

        String cut = BoundedText.cut(message, 2000);

        assertThat(cut).hasSize(2000).endsWith("x…");
        assertThat(BoundedText.cut("01234567890", 10)).isEqualTo("012345678…");
    }
}
