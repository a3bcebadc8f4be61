package io.dsched.internal.execution;

/**
 * The most attempts of each target that may run at once in the whole cluster: a handler's
 * {@code maxConcurrent}. The queue claims the attempts of a limited target under the limit's lock
 * and no more than its free slots, counted from the attempts running in the database.
 */
@FunctionalInterface
public interface ConcurrencyLimits {

    /** No target is limited. */
    ConcurrencyLimits NONE = (name) -> 0;

    /**
     * Returns a target's limit.
     * @param name the job or handler name
     * @return the most of its attempts running at once in the cluster, or 0 for no limit
     */
    int maxConcurrent(String name);
}
