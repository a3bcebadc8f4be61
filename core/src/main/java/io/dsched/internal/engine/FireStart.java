package io.dsched.internal.engine;

/**
 * What the job factory tells the {@link TimedWorkerPool} of the fire Quartz's scheduler thread
 * hands it next, and what a worker learns of the fire it runs. Quartz's thread creates a fire's job
 * and hands it to the pool one after the other, on the same thread, and neither the pool nor the
 * job's runnable can see the other: the hint travels on that thread.
 *
 * @param epochMillis the time the fire was scheduled for
 * @param group the node group of the fire's job, which picks its worker pool
 * @param spillable whether the fire may be spilled when its pool's workers are busy (not that of a
 *     fixed-delay job, whose next fire is timed from the end of this one)
 * @param onStart run on the worker as it starts the fire, before the job
 */
record FireStart(long epochMillis, String group, boolean spillable, Runnable onStart) {

    private static final ThreadLocal<FireStart> NEXT = new ThreadLocal<>();

    private static final ThreadLocal<Boolean> GIVEN_UP = new ThreadLocal<>();

    private static final ThreadLocal<Boolean> SPILLED = new ThreadLocal<>();

    /** A fire with no hint: it starts at once, in the shared pool. */
    static final FireStart NOW = new FireStart(0, "", true, () -> {});

    /** Tells the pool, on Quartz's thread, of the next fire it is handed. */
    static void next(FireStart start) {
        NEXT.set(start);
    }

    /** Takes the hint of the fire being handed over, or {@link #NOW} if none was given. */
    static FireStart take() {
        FireStart start = NEXT.get();
        NEXT.remove();
        return (start != null) ? start : NOW;
    }

    /** Runs a fire on this thread as one given up: see {@link #givenUp}. */
    static void runGivenUp(Runnable fire) {
        GIVEN_UP.set(Boolean.TRUE);
        try {
            fire.run();
        } finally {
            GIVEN_UP.remove();
        }
    }

    /**
     * Whether the fire running on this thread was handed to its worker before its time because the
     * pool shut down: its job must not run, and the fire is left to another node.
     */
    static boolean givenUp() {
        return Boolean.TRUE.equals(GIVEN_UP.get());
    }

    /** Runs a fire on this thread as one spilled: see {@link #spilled}. */
    static void runSpilled(Runnable fire) {
        SPILLED.set(Boolean.TRUE);
        try {
            fire.run();
        } finally {
            SPILLED.remove();
        }
    }

    /**
     * Whether the fire running on this thread found every worker of its pool busy: its job does not
     * run here, and the fire waits for a free worker of its group on any node.
     */
    static boolean spilled() {
        return Boolean.TRUE.equals(SPILLED.get());
    }
}
