package io.dsched.internal.management;

import io.dsched.internal.cluster.ClockSkew;
import io.dsched.internal.cluster.GroupLiveness;
import io.dsched.internal.cluster.NodeTable;
import io.dsched.internal.management.views.Group;
import io.dsched.internal.management.views.Node;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The nodes of the cluster as their check-ins show them, and which of them answers. */
public final class NodeViews {

    private final NodeTable nodes;

    private final Duration nodeTimeout;

    private final ClockSkew skew;

    private final String nodeId;

    private final GroupLiveness groups;

    /**
     * Creates the view.
     * @param nodes the nodes' check-ins
     * @param nodeTimeout how long a node may be silent and still count as alive
     * @param skew judges whether a node's clock offset is beyond bounds
     * @param nodeId this node
     * @param groups the node groups and the live nodes that serve each
     */
    public NodeViews(NodeTable nodes, Duration nodeTimeout, ClockSkew skew, String nodeId, GroupLiveness groups) {
        this.nodes = nodes;
        this.nodeTimeout = nodeTimeout;
        this.skew = skew;
        this.nodeId = nodeId;
        this.groups = groups;
    }

    /**
     * Returns the nodes that have checked in, by id.
     * @return the nodes
     */
    public List<Node> nodes() {
        Map<String, Set<String>> groups = this.nodes.groups();
        return this.nodes.sightings().stream()
                .map((node) -> new Node(
                        node.nodeId(),
                        node.startedAt(),
                        node.lastSeen(),
                        node.isAlive(this.nodeTimeout),
                        node.nodeId().equals(this.nodeId),
                        (node.clockOffset() != null) ? node.clockOffset().toMillis() / 1000.0 : null,
                        node.clockOffset() != null && this.skew.isBeyondBounds(node.clockOffset()),
                        List.copyOf(groups.getOrDefault(node.nodeId(), Set.of()))))
                .sorted(Comparator.comparing(Node::id))
                .toList();
    }

    /**
     * Returns the node groups of the cluster: every group a node serves or a job or handler this
     * node declares runs in.
     * @return the groups, by name
     */
    public List<Group> groups() {
        return this.groups.groups().stream()
                .map((group) -> new Group(group.name(), group.liveNodes(), group.stalled()))
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
