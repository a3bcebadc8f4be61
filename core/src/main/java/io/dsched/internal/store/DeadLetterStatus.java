package io.dsched.internal.store;

/**
 * What an operator did with a dead letter.
 */
public enum DeadLetterStatus {

    /** Waiting for an operator. */
    OPEN,
    /** Run again, under its original idempotency key. */
    REPLAYED,
    /** Given up on, with a reason. */
    DISCARDED
}
