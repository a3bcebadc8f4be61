package io.dsched.internal.store;

/**
 * Text cut to fit the bounded columns it is written to, the end marked with an ellipsis, so that
 * a long exception message or reason never makes an outcome's write fail.
 */
final class TextColumns {

    /** {@code dsched_execution.error_class}. */
    static final int ERROR_CLASS = 500;

    /** {@code dsched_execution.error_message}. */
    static final int ERROR_MESSAGE = 2000;

    /** {@code dsched_execution.status_reason}. */
    static final int STATUS_REASON = 500;

    private TextColumns() {}

    /**
     * Cuts text to at most {@code max} characters.
     * @param text the text, or {@code null}
     * @param max the column's length
     * @return the text, or its first {@code max - 1} characters and an ellipsis
     */
    static String cut(String text, int max) {
        if (text == null || text.length() <= max) {
            return text;
        }
        return text.substring(0, max - 1) + "…";
    }
}
