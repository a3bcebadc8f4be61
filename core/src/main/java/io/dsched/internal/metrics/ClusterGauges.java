package io.dsched.internal.metrics;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster-wide gauges, read from the database at most once per refresh interval however often
 * they are scraped. While the database does not answer, a gauge reads NaN.
 */
public final class ClusterGauges {

    private static final Logger logger = LoggerFactory.getLogger(ClusterGauges.class);

    private final Cached liveNodes;

    private final Cached openDeadLetters;

    private final Cached pendingOneOffs;

    /**
     * Creates the gauges.
     * @param liveNodes counts the live nodes
     * @param openDeadLetters counts the open dead letters
     * @param pendingOneOffs counts the one-off jobs waiting for their first attempt
     * @param refresh how long a value read is used
     * @param clock the clock
     */
    public ClusterGauges(
            LongSupplier liveNodes,
            LongSupplier openDeadLetters,
            LongSupplier pendingOneOffs,
            Duration refresh,
            Clock clock) {
        this.liveNodes = new Cached("live nodes", liveNodes, refresh, clock);
        this.openDeadLetters = new Cached("open dead letters", openDeadLetters, refresh, clock);
        this.pendingOneOffs = new Cached("pending one-off jobs", pendingOneOffs, refresh, clock);
    }

    double liveNodes() {
        return this.liveNodes.get();
    }

    double openDeadLetters() {
        return this.openDeadLetters.get();
    }

    double pendingOneOffs() {
        return this.pendingOneOffs.get();
    }

    private static final class Cached {

        private final String what;

        private final LongSupplier source;

        private final Duration refresh;

        private final Clock clock;

        private double value = Double.NaN;

        private Instant readAt;

        Cached(String what, LongSupplier source, Duration refresh, Clock clock) {
            this.what = what;
            this.source = source;
            this.refresh = refresh;
            this.clock = clock;
        }

        synchronized double get() {
            Instant now = this.clock.instant();
            if (this.readAt == null || !now.isBefore(this.readAt.plus(this.refresh))) {
                this.readAt = now;
                try {
                    this.value = this.source.getAsLong();
                } catch (RuntimeException ex) {
                    logger.debug("Could not read the {} of the cluster: {}", this.what, ex.getMessage());
                    this.value = Double.NaN;
                }
            }
            return this.value;
        }
    }
}
