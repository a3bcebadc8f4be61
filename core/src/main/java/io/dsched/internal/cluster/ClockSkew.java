package io.dsched.internal.cluster;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This node's clock measured against the database's, at every heartbeat. Past the maximum skew the
 * node takes no more fires (other nodes take them) until its clock is back within bounds: Quartz
 * fires by the node's clock, so a node whose clock runs ahead would run every fire early.
 *
 * <p>The offset is the node's time at the middle of the round trip minus the database's time, so
 * the time the query takes does not count as skew.
 */
public final class ClockSkew {

    private static final Logger logger = LoggerFactory.getLogger(ClockSkew.class);

    private final DatabaseClock clock;

    private final Duration maxSkew;

    private final String nodeId;

    private volatile boolean measured;

    private volatile boolean skewed;

    /**
     * Creates the measurement.
     * @param clock the database clock that the measured offset corrects
     * @param maxSkew the largest offset, either way, at which the node still takes fires
     * @param nodeId this node
     */
    public ClockSkew(DatabaseClock clock, Duration maxSkew, String nodeId) {
        this.clock = clock;
        this.maxSkew = maxSkew;
        this.nodeId = nodeId;
    }

    /**
     * Measures the offset against the database's time now, and records it.
     * @param nodes the node table, which reads the database's time and records the offset
     * @return the offset
     */
    public Duration measure(NodeTable nodes) {
        // the offset is known to within half the round trip: a slow one (a pause of the JVM or
        // of the database) is measured again, and the quickest of at most three kept
        Sample best = sample(nodes);
        for (int retry = 0; retry < 2 && best.roundTrip().compareTo(this.maxSkew.dividedBy(2)) > 0; retry++) {
            Sample next = sample(nodes);
            if (next.roundTrip().compareTo(best.roundTrip()) < 0) {
                best = next;
            }
        }
        Duration offset = best.offset();
        this.clock.offset(offset);
        this.measured = true;
        boolean beyond = offset.abs().compareTo(this.maxSkew) > 0;
        if (beyond && !this.skewed) {
            logger.warn(
                    "The clock of node {} is {} s {} the database's, more than dsched.cluster.max-clock-skew ({});"
                            + " it takes no fires until its clock is back within bounds",
                    this.nodeId,
                    seconds(offset.abs()),
                    offset.isNegative() ? "behind" : "ahead of",
                    this.maxSkew);
        } else if (!beyond && this.skewed) {
            logger.info(
                    "The clock of node {} is back within {} of the database's; it takes fires again",
                    this.nodeId,
                    this.maxSkew);
        }
        this.skewed = beyond;
        nodes.recordClockOffset(this.nodeId, offset);
        return offset;
    }

    private Sample sample(NodeTable nodes) {
        Clock nodeClock = this.clock.nodeClock();
        Instant before = nodeClock.instant();
        Instant databaseNow = nodes.databaseNow();
        Instant after = nodeClock.instant();
        Duration roundTrip = Duration.between(before, after);
        return new Sample(Duration.between(databaseNow, before.plus(roundTrip.dividedBy(2))), roundTrip);
    }

    private record Sample(Duration offset, Duration roundTrip) {}

    /**
     * Whether the node's clock was, at the last measurement, further from the database's than the
     * maximum skew.
     * @return {@code true} if the node takes no fires for its clock
     */
    public boolean isSkewed() {
        return this.skewed;
    }

    /**
     * Whether an offset has been measured yet.
     * @return {@code true} once measured
     */
    public boolean isMeasured() {
        return this.measured;
    }

    /**
     * Returns the offset last measured.
     * @return how far the node's clock runs ahead of the database's, negative when behind
     */
    public Duration offset() {
        return this.clock.offset();
    }

    /**
     * Returns the largest offset at which the node takes fires.
     * @return the maximum skew
     */
    public Duration maxSkew() {
        return this.maxSkew;
    }

    /**
     * Whether an offset lies beyond the maximum skew.
     * @param offset an offset
     * @return {@code true} if beyond
     */
    public boolean isBeyondBounds(Duration offset) {
        return offset.abs().compareTo(this.maxSkew) > 0;
    }

    static String seconds(Duration duration) {
        return String.format(java.util.Locale.ROOT, "%.3f", duration.toNanos() / 1e9);
    }
}
