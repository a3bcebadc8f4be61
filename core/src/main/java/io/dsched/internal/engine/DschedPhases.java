package io.dsched.internal.engine;

import org.springframework.context.SmartLifecycle;

/**
 * The life-cycle phases of dsched's parts. They start before the web server (Spring Boot starts
 * it at {@code DEFAULT_PHASE - 2048}), so that an application's endpoints find every job in the
 * store from their first request, and they stop after it.
 */
public final class DschedPhases {

    /** The cluster membership: it joins first and leaves last. */
    public static final int MEMBERSHIP = SmartLifecycle.DEFAULT_PHASE - 4096;

    /** The engine and the queue of waiting attempts. */
    public static final int ENGINE = SmartLifecycle.DEFAULT_PHASE - 3072;

    private DschedPhases() {}
}
