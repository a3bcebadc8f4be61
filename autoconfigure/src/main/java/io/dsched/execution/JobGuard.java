package io.dsched.execution;

import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;

/**
 * Keeps runs of one job from overlapping anywhere in the cluster, with a ShedLock lock named
 * after the job.
 */
public final class JobGuard {

    private final LockProvider lockProvider;

    private final Duration defaultAtMostFor;

    private final Duration defaultAtLeastFor;

    private final Clock clock;

    /**
     * Creates a guard.
     * @param lockProvider the ShedLock provider, using the database's clock
     * @param defaultAtMostFor how long a lock is held at most, unless the job says otherwise
     * @param defaultAtLeastFor how long a lock is held at least, unless the job says otherwise
     * @param clock the clock
     */
    public JobGuard(LockProvider lockProvider, Duration defaultAtMostFor, Duration defaultAtLeastFor, Clock clock) {
        this.lockProvider = lockProvider;
        this.defaultAtMostFor = defaultAtMostFor;
        this.defaultAtLeastFor = defaultAtLeastFor;
        this.clock = clock;
    }

    /**
     * Tries to take a job's lock.
     * @param job the job
     * @return the lock, or empty if another run holds it
     */
    public Optional<SimpleLock> tryLock(JobTarget job) {
        Duration atMostFor = (job.lockAtMostFor() != null) ? job.lockAtMostFor() : this.defaultAtMostFor;
        Duration atLeastFor = (job.lockAtLeastFor() != null) ? job.lockAtLeastFor() : this.defaultAtLeastFor;
        if (atLeastFor.compareTo(atMostFor) > 0) {
            atLeastFor = atMostFor;
        }
        return this.lockProvider.lock(new LockConfiguration(this.clock.instant(), job.name(), atMostFor, atLeastFor));
    }
}
