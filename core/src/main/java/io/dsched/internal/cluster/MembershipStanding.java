package io.dsched.internal.cluster;

import io.dsched.internal.cluster.NodeTable.NodeSighting;
import io.dsched.quartz.NodeStanding;
import java.time.Duration;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

/**
 * A node's standing as its membership sees it, for the Quartz store: it takes fires while its clock
 * is within bounds, and the live nodes are those seen within the node timeout in database time.
 */
public final class MembershipStanding implements NodeStanding {

    private final ClockSkew skew;

    private final NodeTable nodes;

    private final Duration nodeTimeout;

    private final BooleanSupplier judges;

    private final String nodeId;

    /**
     * Creates the standing of a node.
     * @param membership the node's membership
     * @param skew the node's clock measurement
     * @param nodes the node table
     * @param nodeTimeout how long a node may go unseen before it is declared dead
     * @param nodeId this node
     */
    public MembershipStanding(
            ClusterMembership membership, ClockSkew skew, NodeTable nodes, Duration nodeTimeout, String nodeId) {
        this.skew = skew;
        this.nodes = nodes;
        this.nodeTimeout = nodeTimeout;
        this.judges = membership::judgesOthers;
        this.nodeId = nodeId;
    }

    @Override
    public boolean takesFires() {
        return !this.skew.isSkewed();
    }

    @Override
    public Optional<Set<String>> liveNodes() {
        if (!this.judges.getAsBoolean()) {
            return Optional.empty();
        }
        Set<String> live = this.nodes.sightings().stream()
                .filter((node) -> node.isAlive(this.nodeTimeout))
                .map(NodeSighting::nodeId)
                .collect(Collectors.toSet());
        live.add(this.nodeId);
        return Optional.of(live);
    }
}
