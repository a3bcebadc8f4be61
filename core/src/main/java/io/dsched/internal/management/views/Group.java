package io.dsched.internal.management.views;

import java.util.List;

/**
 * A node group of the cluster.
 *
 * @param name the group
 * @param liveNodes the live nodes that serve it, by id
 * @param stalled whether no live node serves it, so that its attempts wait
 */
public record Group(String name, List<String> liveNodes, boolean stalled) {}
