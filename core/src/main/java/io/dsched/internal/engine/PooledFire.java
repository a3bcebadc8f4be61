package io.dsched.internal.engine;

/**
 * A fire handed to the {@link TimedWorkerPool}: Quartz's runnable of the fire, what to do as a
 * worker starts it, the time it is to start at, and its job's group. Kept by identity: two fires
 * are never equal.
 */
final class PooledFire {

    private final Runnable shell;

    private final Runnable onStart;

    private final long startAt;

    private final String group;

    private final boolean spillable;

    PooledFire(Runnable shell, Runnable onStart, long startAt, String group, boolean spillable) {
        this.shell = shell;
        this.onStart = onStart;
        this.startAt = startAt;
        this.group = group;
        this.spillable = spillable;
    }

    /** Whether the fire may be spilled when its pool's workers are busy. */
    boolean spillable() {
        return this.spillable;
    }

    /** The node group of the fire's job, which picks its worker pool. */
    String group() {
        return this.group;
    }

    /** The time the fire is to start at, in epoch milliseconds. */
    long startAt() {
        return this.startAt;
    }

    /** Runs the fire on this thread: what is to be done at its start, then Quartz's runnable. */
    void run() {
        this.onStart.run();
        this.shell.run();
    }
}
