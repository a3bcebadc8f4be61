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
     * Returns the names of every target this node can run.
     * @return the names
     */
    Set<String> names();
}
