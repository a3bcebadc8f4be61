package io.dsched.execution;

/**
 * Tells a handler's adaptive concurrency limit that what its attempts call is overloaded, from
 * what the application sees: a host's load, a downstream's answers ({@code 429}, {@code 503}), a
 * queue's depth. Declare a bean of this type and each node asks it, as it claims the attempts of a
 * handler with {@code @Adaptive} limits, for each such handler: an answer of {@code true} halves the
 * handler's limit at the end of the window, whatever its failures, and holds it from rising.
 *
 * <p>It is asked on the thread that claims, at most once per claim of each adaptive handler: it
 * must be quick, and must not fail (an exception it throws is logged and read as not overloaded).
 */
@FunctionalInterface
public interface LoadSignal {

    /**
     * Tells whether a handler's work is overloaded now.
     * @param handler the handler's name
     * @return {@code true} to lower its limit
     */
    boolean overloaded(String handler);
}
