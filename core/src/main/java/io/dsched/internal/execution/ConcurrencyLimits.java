package io.dsched.internal.execution;

/**
 * The most attempts of each target that may run at once in the whole cluster, a handler's
 * {@code maxConcurrent}, and the most started per period, its {@code rate}. The queue claims the attempts of a limited target under the limit's lock
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

    /**
     * Returns a target's rate limit.
     * @param name the job or handler name
     * @return the most of its attempts started per period in the cluster, or {@code null} for none
     */
    default Rate rate(String name) {
        return null;
    }

    /**
     * Tells whether a target's concurrency limit counts each key apart (its {@code partitionBy}).
     * @param name the job or handler name
     * @return {@code true} if it does
     */
    default boolean perKey(String name) {
        return false;
    }

    /**
     * Tells whether a target is limited, by either.
     * @param name the job or handler name
     * @return {@code true} if it has a concurrency or a rate limit
     */
    default boolean limits(String name) {
        return maxConcurrent(name) > 0 || rate(name) != null;
    }
}
