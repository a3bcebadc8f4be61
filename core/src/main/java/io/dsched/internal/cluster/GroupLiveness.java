package io.dsched.internal.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Which live nodes serve each node group: every group a node serves or a job or handler this node
 * declares runs in. A group that no live node serves is stalled: its attempts wait, none lost,
 * until a node of the group joins.
 */
public final class GroupLiveness {

    private final NodeTable nodes;

    private final Duration nodeTimeout;

    private final Supplier<Set<String>> declaredGroups;

    /**
     * Creates the view.
     * @param nodes the cluster's node table
     * @param nodeTimeout how long a node may be silent and still count as alive
     * @param declaredGroups the groups the jobs and handlers this node declares run in
     */
    public GroupLiveness(NodeTable nodes, Duration nodeTimeout, Supplier<Set<String>> declaredGroups) {
        this.nodes = nodes;
        this.nodeTimeout = nodeTimeout;
        this.declaredGroups = declaredGroups;
    }

    /**
     * Reads the groups and the live nodes that serve each.
     * @return the groups, by name
     */
    public List<Group> groups() {
        return groups(this.nodes.sightings());
    }

    /**
     * Reads the groups, and the live nodes that serve each among nodes read already.
     * @param sightings the nodes of the cluster, as just read
     * @return the groups, by name
     */
    public List<Group> groups(List<NodeSighting> sightings) {
        Set<String> live = new HashSet<>();
        for (NodeSighting node : sightings) {
            if (node.isAlive(this.nodeTimeout)) {
                live.add(node.nodeId());
            }
        }
        Map<String, List<String>> byGroup = new TreeMap<>();
        for (String group : this.declaredGroups.get()) {
            byGroup.put(group, new ArrayList<>());
        }
        this.nodes.groups().forEach((node, groups) -> {
            for (String group : groups) {
                List<String> serving = byGroup.computeIfAbsent(group, (name) -> new ArrayList<>());
                if (live.contains(node)) {
                    serving.add(node);
                }
            }
        });
        List<Group> groups = new ArrayList<>(byGroup.size());
        byGroup.forEach((name, serving) -> groups.add(new Group(name, List.copyOf(serving))));
        return groups;
    }

    /**
     * A node group and the live nodes that serve it.
     *
     * @param name the group
     * @param liveNodes the live nodes that serve it, by id
     */
    public record Group(String name, List<String> liveNodes) {

        /**
         * Tells whether no live node serves the group, so that its attempts wait.
         * @return {@code true} if the group is stalled
         */
        public boolean stalled() {
            return this.liveNodes.isEmpty();
        }
    }
}
