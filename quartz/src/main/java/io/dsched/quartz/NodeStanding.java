package io.dsched.quartz;

import java.util.Optional;
import java.util.Set;

/**
 * What a membership of the cluster kept outside Quartz (dsched's, in database time) tells this
 * node's {@link ClusterJobStore}: whether the node may take fires now, and which nodes are alive.
 */
public interface NodeStanding {

    /**
     * Whether this node may acquire fires now; not while its clock is too far from the database's.
     * @return {@code true} if it may
     */
    boolean takesFires();

    /**
     * Returns the nodes the cluster counts as alive, judged in database time.
     * @return their ids, or empty while this node cannot judge (it has not reached the database for
     *     a whole node timeout)
     */
    Optional<Set<String>> liveNodes();
}
