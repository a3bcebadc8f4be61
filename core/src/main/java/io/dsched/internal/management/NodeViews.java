package io.dsched.internal.management;

import io.dsched.internal.cluster.ClockSkew;
import io.dsched.internal.cluster.NodeTable;
import io.dsched.internal.management.views.Node;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;

/** The nodes of the cluster as their check-ins show them, and which of them answers. */
public final class NodeViews {

    private final NodeTable nodes;

    private final Duration nodeTimeout;

    private final ClockSkew skew;

    private final String nodeId;

    /**
     * Creates the view.
     * @param nodes the nodes' check-ins
     * @param nodeTimeout how long a node may be silent and still count as alive
     * @param skew judges whether a node's clock offset is beyond bounds
     * @param nodeId this node
     */
    public NodeViews(NodeTable nodes, Duration nodeTimeout, ClockSkew skew, String nodeId) {
        this.nodes = nodes;
        this.nodeTimeout = nodeTimeout;
        this.skew = skew;
        this.nodeId = nodeId;
    }

    /**
     * Returns the nodes that have checked in, by id.
     * @return the nodes
     */
    public List<Node> nodes() {
        return this.nodes.sightings().stream()
                .map((node) -> new Node(
                        node.nodeId(),
                        node.startedAt(),
                        node.lastSeen(),
                        node.isAlive(this.nodeTimeout),
                        node.nodeId().equals(this.nodeId),
                        (node.clockOffset() != null) ? node.clockOffset().toMillis() / 1000.0 : null,
                        node.clockOffset() != null && this.skew.isBeyondBounds(node.clockOffset())))
                .sorted(Comparator.comparing(Node::id))
                .toList();
    }

    /**
     * Returns this node's id.
     * @return the node that answers
     */
    public String nodeId() {
        return this.nodeId;
    }
}
