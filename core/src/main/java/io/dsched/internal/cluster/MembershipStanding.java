package io.dsched.internal.cluster;

import io.dsched.quartz.NodeStanding;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;

/**
 * A node's standing as its membership sees it, for the Quartz store: it takes fires while its clock
 * is within bounds, and the live nodes are those seen within the node timeout in database time.
 */
public final class MembershipStanding implements NodeStanding {

    private final ClockSkew skew;

    private final NodeTable nodes;

    private final BooleanSupplier judges;

    private final Liveness liveness;

    /**
     * Creates the standing of a node.
     * @param membership the node's membership
     * @param skew the node's clock measurement
     * @param nodes the node table
     */
    public MembershipStanding(ClusterMembership membership, ClockSkew skew, NodeTable nodes) {
        this.skew = skew;
        this.nodes = nodes;
        this.judges = membership::judgesOthers;
        this.liveness = membership.liveness();
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
        return Optional.of(this.liveness.liveNodes(this.nodes.sightings()));
    }
}
