package io.dsched.internal.store;

/**
 * The lengths of {@code dsched_execution}'s bounded text columns, which
 * {@link io.dsched.internal.text.BoundedText#cut} fits an outcome's text to.
 */
final class TextColumns {

    /** {@code dsched_execution.error_class}. */
    static final int ERROR_CLASS = 500;

    /** {@code dsched_execution.error_message}. */
    static final int ERROR_MESSAGE = 2000;

    /** {@code dsched_execution.status_reason}. */
    static final int STATUS_REASON = 500;

    private TextColumns() {}
}
