package io.dsched.internal.execution;

import io.dsched.internal.store.TargetLimits;

/**
 * The cluster-wide limits of each target: a handler's {@code maxConcurrent} (per key with its
 * {@code partitionBy}, adapting with its {@code adaptive}), {@code rate} and {@code quota}. The
 * queue claims the attempts of a limited target under the lock of the target's row of limits, and
 * no more than they leave room for.
 */
@FunctionalInterface
public interface ConcurrencyLimits {

    /** No target is limited. */
    ConcurrencyLimits NONE = (name) -> TargetLimits.NONE;

    /**
     * Returns the limits a target declares.
     * @param name the job or handler name
     * @return its limits, {@link TargetLimits#NONE} for none
     */
    TargetLimits limitsOf(String name);

    /**
     * Returns a target's concurrency limit.
     * @param name the job or handler name
     * @return the most of its attempts running at once in the cluster, or 0 for no limit
     */
    default int maxConcurrent(String name) {
        return limitsOf(name).maxConcurrent();
    }

    /**
     * Tells whether a target's concurrency limit counts each key apart (its {@code partitionBy}).
     * @param name the job or handler name
     * @return {@code true} if it does
     */
    default boolean perKey(String name) {
        return limitsOf(name).perKey();
    }

    /**
     * Tells whether a target is limited at all.
     * @param name the job or handler name
     * @return {@code true} if it has a concurrency limit, a rate or a quota
     */
    default boolean limits(String name) {
        return limitsOf(name).any();
    }
}
