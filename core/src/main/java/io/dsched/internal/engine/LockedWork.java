package io.dsched.internal.engine;

/** Work done under the deployment lock. */
@FunctionalInterface
public interface LockedWork<T, E extends Exception> {

    /**
     * Does the work.
     * @return its result
     * @throws E if it fails
     */
    T run() throws E;
}
