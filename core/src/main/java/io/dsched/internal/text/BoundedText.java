package io.dsched.internal.text;

/**
 * Text cut to fit the bounded column it is written to, the end marked with an ellipsis, so that a
 * long exception message, reason or value never makes a write fail, and a reader sees that it was cut.
 */
public final class BoundedText {

    private BoundedText() {}

    /**
     * Cuts text to at most {@code max} characters.
     * @param text the text, or {@code null}
     * @param max the column's length, at least 1
     * @return the text, or its first {@code max - 1} characters and an ellipsis
     */
    public static String cut(String text, int max) {
        if (text == null || text.length() <= max) {
            return text;
        }
        return text.substring(0, max - 1) + "…";
    }
}
