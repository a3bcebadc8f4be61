package io.dsched.internal.execution;

import java.util.Optional;
import java.util.Set;

/**
 * The jobs and handlers this node can run, by name.
 */
public interface JobTargets {

    /**
     * Looks a target up.
     * @param name the job or handler name
     * @return the target, or empty if this node does not declare it
     */
    Optional<JobTarget> find(String name);

    /**
     * Looks up a sharded job, to split a fire of it this node took: one this node runs, or one whose
     * shards its definition gives though this node does not run it (a runtime job whose handler
     * this node does not declare), whose shards the nodes that run it claim.
     * @param name the job
     * @return the job with its shards, or empty if it is not a sharded job that this node can split
     */
    default Optional<JobTarget> sharded(String name) {
        return find(name).filter((target) -> target.shards() != null);
    }

    /**
     * Returns the names of every target this node can run.
     * @return the names
     */
    Set<String> names();
}
