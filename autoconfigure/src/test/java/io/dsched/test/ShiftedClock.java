package io.dsched.test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;

/**
 * A node's clock that runs a settable amount ahead of (or, negative, behind) the system's, for the
 * tests of clock skew; the shift can change while the node runs.
 */
public final class ShiftedClock extends Clock {

    private final Clock base;

    private volatile Duration shift;

    /**
     * Creates the clock.
     * @param base the clock it shifts
     * @param shift how far ahead it runs
     */
    public ShiftedClock(Clock base, Duration shift) {
        this.base = base;
        this.shift = shift;
    }

    /**
     * Sets how far ahead the clock runs.
     * @param shift the shift, negative for behind
     */
    public void shift(Duration shift) {
        this.shift = shift;
    }

    @Override
    public Instant instant() {
        return this.base.instant().plus(this.shift);
    }

    @Override
    public ZoneId getZone() {
        return this.base.getZone();
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return new ShiftedClock(this.base.withZone(zone), this.shift);
    }
}
