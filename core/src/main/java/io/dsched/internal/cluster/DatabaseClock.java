package io.dsched.internal.cluster;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * Database time as this node best knows it: the node's own clock corrected by the offset that
 * {@link ClockSkew} measured at the last heartbeat. Due times of one-offs and retries, the claim of
 * waiting attempts and the times an attempt records are taken from it, so that a node whose clock
 * runs ahead neither claims waiting work early nor schedules it late.
 */
public final class DatabaseClock extends Clock {

    private final Clock nodeClock;

    private volatile Duration offset = Duration.ZERO;

    /**
     * Creates the clock, with no offset measured yet.
     * @param nodeClock the node's own clock
     */
    public DatabaseClock(Clock nodeClock) {
        this.nodeClock = nodeClock;
    }

    /**
     * Returns the node's own clock, uncorrected.
     * @return the clock
     */
    public Clock nodeClock() {
        return this.nodeClock;
    }

    /**
     * Returns how far the node's clock runs ahead of the database's (negative when behind), as
     * last measured.
     * @return the offset
     */
    public Duration offset() {
        return this.offset;
    }

    void offset(Duration offset) {
        this.offset = offset;
    }

    @Override
    public Instant instant() {
        return this.nodeClock.instant().minus(this.offset);
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        throw new UnsupportedOperationException("Database time is kept in UTC");
    }
}
