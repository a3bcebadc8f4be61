package io.dsched.internal.metrics;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * When a gauge reads its value from the database again: at most once per refresh interval, however
 * often it is scraped.
 */
final class RefreshWindow {

    private final Duration refresh;

    private final Clock clock;

    private Instant readAt;

    RefreshWindow(Duration refresh, Clock clock) {
        this.refresh = refresh;
        this.clock = clock;
    }

    /** Tells whether the last read is a refresh interval old, or there was none. */
    synchronized boolean due() {
        return this.readAt == null || !this.clock.instant().isBefore(this.readAt.plus(this.refresh));
    }

    /** Counts a read as made now. */
    synchronized void read() {
        this.readAt = this.clock.instant();
    }
}
