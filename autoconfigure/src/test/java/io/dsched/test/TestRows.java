package io.dsched.test;

import io.dsched.internal.store.DeadLetter;
import io.dsched.internal.store.DeadLetterStatus;
import java.time.Instant;

/** Rows of dsched's tables that tests write directly, to age them or to fill a table. */
public final class TestRows {

    private TestRows() {}

    /**
     * Returns a dead letter of the job {@code poison} that failed once, at the given time.
     * @param failedAt when it failed, first and last
     * @param status its status
     * @return the letter, not saved yet
     */
    public static DeadLetter deadLetter(Instant failedAt, DeadLetterStatus status) {
        return new DeadLetter(
                null,
                "poison",
                failedAt,
                "poison@" + failedAt.toEpochMilli() + status,
                1,
                1L,
                "java.lang.IllegalStateException",
                "boom",
                null,
                null,
                failedAt,
                failedAt,
                "node-1",
                status,
                null,
                null,
                null);
    }
}
