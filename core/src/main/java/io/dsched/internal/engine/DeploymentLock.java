package io.dsched.internal.engine;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;

/**
 * The cluster's lock over what deployments write to the store: a node adopting its deployment's
 * jobs at start-up and a node removing the jobs the newest deployment dropped take turns, so that
 * a removal decided on what one deployment declares never deletes a job a starting node declares
 * again, and two deployments that start at once are recorded one after the other.
 *
 * <p>It is a row of the cluster's lock table, in database time; a node that dies holding it holds
 * it for at most {@link #HELD_AT_MOST}, or until the node timeout releases the locks of dead nodes.
 */
public final class DeploymentLock {

    /** The name of the lock in {@code dsched_lock}. */
    public static final String NAME = "dsched.deployments";

    /** How long a node that dies holding the lock keeps it. */
    public static final Duration HELD_AT_MOST = Duration.ofMinutes(5);

    private static final long RETRY_MILLIS = 50;

    private final LockProvider locks;

    private final Clock clock;

    /**
     * Creates the lock.
     * @param locks the cluster's locks
     * @param clock the clock
     */
    public DeploymentLock(LockProvider locks, Clock clock) {
        this.locks = locks;
        this.clock = clock;
    }

    /**
     * Does work under the lock, waiting for it while another node holds it.
     * @param work the work
     * @param <T> its result
     * @param <E> what it throws
     * @return its result
     * @throws E if the work fails
     * @throws IllegalStateException if the lock stays taken for longer than a dead node can hold it
     */
    public <T, E extends Exception> T whileHolding(LockedWork<T, E> work) throws E {
        // a node that died holding it holds it for HELD_AT_MOST; several nodes starting at once
        // take turns, each for a moment
        Instant deadline = this.clock.instant().plus(HELD_AT_MOST.multipliedBy(2));
        while (true) {
            Optional<SimpleLock> lock = tryLock();
            if (lock.isPresent()) {
                return runAndUnlock(lock.get(), work);
            }
            if (this.clock.instant().isAfter(deadline)) {
                throw new IllegalStateException(
                        "Another node held the lock '" + NAME + "' for longer than " + HELD_AT_MOST);
            }
            pause();
        }
    }

    /**
     * Does work under the lock if no other node holds it.
     * @param work the work
     * @param <T> its result
     * @param <E> what it throws
     * @return its result, or empty if another node held the lock
     * @throws E if the work fails
     */
    public <T, E extends Exception> Optional<T> ifFree(LockedWork<T, E> work) throws E {
        Optional<SimpleLock> lock = tryLock();
        return lock.isPresent() ? Optional.ofNullable(runAndUnlock(lock.get(), work)) : Optional.empty();
    }

    private Optional<SimpleLock> tryLock() {
        return this.locks.lock(new LockConfiguration(this.clock.instant(), NAME, HELD_AT_MOST, Duration.ZERO));
    }

    private static <T, E extends Exception> T runAndUnlock(SimpleLock lock, LockedWork<T, E> work) throws E {
        try {
            return work.run();
        } finally {
            lock.unlock();
        }
    }

    private static void pause() {
        try {
            Thread.sleep(RETRY_MILLIS);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for the lock '" + NAME + "'", ex);
        }
    }
}
