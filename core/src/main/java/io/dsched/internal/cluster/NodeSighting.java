package io.dsched.internal.cluster;

import java.time.Duration;
import java.time.Instant;

/**
 * A node as last seen.
 *
 * @param nodeId the node
 * @param startedAt when it joined
 * @param lastSeen when it last recorded that it is alive
 * @param now the database's time when this was read
 * @param clockOffset how far the node's clock ran ahead of the database's at its last
 *     measurement (negative when behind), or {@code null} if it has not measured it
 */
public record NodeSighting(String nodeId, Instant startedAt, Instant lastSeen, Instant now, Duration clockOffset) {

    /**
     * How long the node has not been seen.
     * @return the silence
     */
    public Duration silence() {
        return Duration.between(this.lastSeen, this.now);
    }

    /**
     * Whether the cluster counts the node as alive: seen within the node timeout.
     * @param nodeTimeout how long a node may be silent
     * @return {@code true} if alive
     */
    public boolean isAlive(Duration nodeTimeout) {
        return silence().compareTo(nodeTimeout) <= 0;
    }
}
