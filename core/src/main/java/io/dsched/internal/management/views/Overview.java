package io.dsched.internal.management.views;

import io.dsched.execution.ExecutionStatus;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * The cluster at a glance.
 *
 * @param node the node that answered
 * @param nodes the nodes that have checked in
 * @param running attempts running now, cluster-wide
 * @param waiting attempts waiting to fall due or to be claimed (one-offs, retries, replays)
 * @param deadLetterBacklog open dead letters
 * @param window the window the counts cover
 * @param counts attempts that started within the window, by state
 * @param jobs how many jobs this node knows
 * @param groups the node groups of the cluster, with the live nodes that serve each
 */
public record Overview(
        String node,
        List<Node> nodes,
        long running,
        long waiting,
        long deadLetterBacklog,
        Duration window,
        Map<ExecutionStatus, Long> counts,
        int jobs,
        List<Group> groups) {}
