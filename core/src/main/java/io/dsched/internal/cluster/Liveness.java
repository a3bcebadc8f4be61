package io.dsched.internal.cluster;

import io.dsched.execution.ExecutionRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Who is alive, and when this node may act on it, decided from the node table as read and a time:
 * no database and no clock of its own, so that each rule can be proved on its boundary.
 */
final class Liveness {

    private final String nodeId;

    private final Duration heartbeatInterval;

    private final Duration nodeTimeout;

    Liveness(String nodeId, Duration heartbeatInterval, Duration nodeTimeout) {
        if (nodeTimeout.compareTo(heartbeatInterval.multipliedBy(2)) < 0) {
            throw new IllegalArgumentException("dsched.recovery.node-timeout (" + nodeTimeout
                    + ") must be at least twice dsched.recovery.heartbeat-interval (" + heartbeatInterval + ")");
        }
        this.nodeId = nodeId;
        this.heartbeatInterval = heartbeatInterval;
        this.nodeTimeout = nodeTimeout;
    }

    /**
     * Whether a node whose heartbeats have succeeded since {@code healthySince} judges the
     * liveness of others at {@code now}: only after a whole node timeout, so that an outage of the
     * database, during which no node could record a heartbeat, is not taken for their death.
     */
    boolean judgesOthers(Instant healthySince, Instant now) {
        return healthySince != null && Duration.between(healthySince, now).compareTo(this.nodeTimeout) >= 0;
    }

    /** The nodes seen within the node timeout, and this node, which is alive as it asks. */
    Set<String> liveNodes(Collection<NodeSighting> sightings) {
        Set<String> live = new HashSet<>();
        for (NodeSighting node : sightings) {
            if (node.isAlive(this.nodeTimeout)) {
                live.add(node.nodeId());
            }
        }
        live.add(this.nodeId);
        return live;
    }

    /**
     * Another process that still records heartbeats under this node's id: seen within two
     * heartbeats. An earlier process that died falls silent within that.
     */
    Optional<NodeSighting> liveTwin(Collection<NodeSighting> sightings) {
        Duration quiet = this.heartbeatInterval.multipliedBy(2);
        return sightings.stream()
                .filter((node) -> node.nodeId().equals(this.nodeId))
                .filter((node) -> node.silence().compareTo(quiet) <= 0)
                .findFirst();
    }

    /**
     * Whether an attempt recorded as running on this node is not: no worker of this node holds it
     * and it started over a node timeout ago, so that its outcome could not be written.
     */
    boolean isStale(ExecutionRecord ownAttempt, Set<Long> inFlight, Instant now) {
        return !inFlight.contains(ownAttempt.id()) && ownAttempt.startedAt().isBefore(now.minus(this.nodeTimeout));
    }

    /** Why an orphan of another node is taken over, as its dead letter and its log say. */
    static String deathOf(String deadNode, List<NodeSighting> sightings) {
        String lastSeen = sightings.stream()
                .filter((node) -> node.nodeId().equals(deadNode))
                .findFirst()
                .map((node) -> "unseen for " + node.silence().toSeconds() + "s")
                .orElse("gone");
        return "node " + deadNode + " died while running it (" + lastSeen + ")";
    }
}
