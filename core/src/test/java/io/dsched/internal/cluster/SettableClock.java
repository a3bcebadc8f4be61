package io.dsched.internal.cluster;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A node's clock that the test moves. */
final class SettableClock extends Clock {

    private volatile Instant now;

    SettableClock(Instant now) {
        this.now = now;
    }

    void advance(Duration duration) {
        this.now = this.now.plus(duration);
    }

    @Override
    public Instant instant() {
        return this.now;
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException();
    }
}
