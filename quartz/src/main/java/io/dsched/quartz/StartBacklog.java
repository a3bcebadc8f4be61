package io.dsched.quartz;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * The fires of a node whose time has come and that no worker has started yet. Writes that can wait
 * a moment without harm, such as a fire's completion or the outcome of an attempt that succeeded,
 * wait while there are any, for at most a bound: when many fires fall due at once, the database
 * serves their starts first, and the writes that would compete with them come after, in larger
 * groups. The node's worker pool counts the fires; the writers {@link #awaitStarts wait}.
 */
public final class StartBacklog {

    /** A backlog that never makes a writer wait, for a scheduler created without one. */
    public static final StartBacklog NONE = new StartBacklog(Duration.ZERO);

    /** How often a waiting writer looks whether it has a reason to go on. */
    private static final long LOOK_NANOS = TimeUnit.MILLISECONDS.toNanos(5);

    private final long mostWaitNanos;

    private final Object lock = new Object();

    /** Fires due and not started; guarded by {@link #lock}. */
    private int due;

    /**
     * Creates a backlog.
     * @param mostWait the longest a writer waits for the starts, however many are left: a node
     *     that cannot start its fires as fast as they fall due still writes its outcomes
     */
    public StartBacklog(Duration mostWait) {
        if (mostWait.isNegative()) {
            throw new IllegalArgumentException("A wait cannot be negative: " + mostWait);
        }
        this.mostWaitNanos = mostWait.toNanos();
    }

    /** Counts a fire whose time has come, waiting for a worker to start it. */
    public void due() {
        if (this.mostWaitNanos == 0) {
            // no writer waits: nothing to count, and no lock for the pools that share NONE
            return;
        }
        synchronized (this.lock) {
            this.due++;
        }
    }

    /** Counts off a fire {@link #due} before: a worker started it, or it was given up. */
    public void started() {
        if (this.mostWaitNanos == 0) {
            return;
        }
        synchronized (this.lock) {
            this.due--;
            if (this.due <= 0) {
                this.lock.notifyAll();
            }
        }
    }

    /**
     * Returns how many fires are due and not started; always 0 for a backlog whose bound is zero,
     * which counts nothing.
     * @return the count
     */
    public int waiting() {
        synchronized (this.lock) {
            return this.due;
        }
    }

    /**
     * Waits while fires are due and not started, at most the bound this backlog was created with,
     * and no longer once the writer has a reason to go on: it is closing, what waits for it fills
     * more than it should hold back, or someone blocks for its write. The reason is looked at every
     * few milliseconds.
     * @param goOn tells whether to stop waiting
     * @throws InterruptedException if interrupted while waiting
     */
    public void awaitStarts(BooleanSupplier goOn) throws InterruptedException {
        if (this.mostWaitNanos == 0) {
            return;
        }
        long deadline = System.nanoTime() + this.mostWaitNanos;
        synchronized (this.lock) {
            long left = this.mostWaitNanos;
            while (this.due > 0 && left > 0 && !goOn.getAsBoolean()) {
                TimeUnit.NANOSECONDS.timedWait(this.lock, Math.min(left, LOOK_NANOS));
                left = deadline - System.nanoTime();
            }
        }
    }
}
