package io.dsched.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Text cut to fit a bounded column: never longer than the column, and marked where it was cut. */
class TextColumnsTests {

    @Test
    void textThatFitsIsWrittenAsItIs() {
        assertThat(TextColumns.cut(null, 10)).isNull();
        assertThat(TextColumns.cut("", 10)).isEmpty();
        assertThat(TextColumns.cut("0123456789", 10)).isEqualTo("0123456789");
    }

    @Test
    void longerTextIsCutToTheColumnsLengthAndEndsWithAnEllipsis() {
        String message = "x".repeat(TextColumns.ERROR_MESSAGE) + "y";

        String cut = TextColumns.cut(message, TextColumns.ERROR_MESSAGE);

        assertThat(cut).hasSize(TextColumns.ERROR_MESSAGE).endsWith("x…");
        assertThat(TextColumns.cut("01234567890", 10)).isEqualTo("012345678…");
    }
}
