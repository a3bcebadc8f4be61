package io.dsched.internal.execution;

import io.dsched.internal.store.ClusterTables;
import io.dsched.internal.store.LockRelease;
import io.dsched.internal.store.LockTable;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.Optional;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps runs of one job from overlapping anywhere in the cluster, with a ShedLock lock named
 * after the job. On dsched's own lock table it takes and releases locks with ShedLock's statements
 * over plain JDBC ({@link LockTable}), and can take one inside the transaction that claims a fire;
 * with a lock provider of the application's, it goes through that provider, and a cluster other
 * than the default names its locks there {@code <cluster>.<job>}, so that two clusters sharing
 * that provider (one Redis, say) do not hold each other's jobs back. dsched's table is the
 * cluster's own.
 */
public final class JobGuard {

    private static final Logger logger = LoggerFactory.getLogger(JobGuard.class);

    private final LockProvider lockProvider;

    private final LockTable table;

    private final Duration defaultAtMostFor;

    private final Duration defaultAtLeastFor;

    private final Clock clock;

    private final String providerPrefix;

    /**
     * Creates a guard.
     * @param lockProvider the ShedLock provider, using the database's clock
     * @param table dsched's lock table when the provider is dsched's own, or {@code null}
     * @param defaultAtMostFor how long a lock is held at most, unless the job says otherwise
     * @param defaultAtLeastFor how long a lock is held at least, unless the job says otherwise
     * @param clock the clock
     * @param clusterName the cluster's name, {@code dsched.cluster.name}
     */
    public JobGuard(
            LockProvider lockProvider,
            LockTable table,
            Duration defaultAtMostFor,
            Duration defaultAtLeastFor,
            Clock clock,
            String clusterName) {
        this.lockProvider = lockProvider;
        this.table = table;
        this.defaultAtMostFor = defaultAtMostFor;
        this.defaultAtLeastFor = defaultAtLeastFor;
        this.clock = clock;
        this.providerPrefix =
                (table != null || ClusterTables.DEFAULT_CLUSTER.equals(clusterName)) ? "" : clusterName + ".";
    }

    /**
     * Tries to take a job's lock.
     * @param job the job
     * @return the lock, or empty if another run holds it
     */
    public Optional<SimpleLock> tryLock(JobTarget job) {
        LockConfiguration lock = configuration(job);
        if (this.table != null) {
            return this.table.lock(lock) ? Optional.of(release(lock)) : Optional.empty();
        }
        return this.lockProvider.lock(lock);
    }

    /**
     * Tells whether {@link #tryLockOn} can take locks: on dsched's own lock table, on a database
     * whose insert passes over a conflict without failing the transaction.
     * @return {@code true} if it can
     */
    public boolean locksInTransactions() {
        return this.table != null && this.table.locksInTransactions();
    }

    /**
     * Tries to take a job's lock inside a transaction the caller owns and commits.
     * @param connection the connection, inside the transaction
     * @param job the job
     * @return the lock, held once the transaction commits, or empty if another run holds it
     * @throws SQLException if the statement fails
     */
    public Optional<SimpleLock> tryLockOn(Connection connection, JobTarget job) throws SQLException {
        if (!locksInTransactions()) {
            throw new UnsupportedOperationException("This guard cannot take locks inside a transaction");
        }
        LockConfiguration lock = configuration(job);
        return this.table.lockOn(connection, lock) ? Optional.of(release(lock)) : Optional.empty();
    }

    private SimpleLock release(LockConfiguration lock) {
        return new TableLock(lock);
    }

    /**
     * Tells how to release a lock this guard took in the transaction that records the outcome of
     * its run, instead of on its own.
     * @param lock a lock this guard took
     * @return the release, or empty if the lock is not one of dsched's table and must be released
     *     with {@link SimpleLock#unlock()}
     */
    public Optional<LockRelease> releaseWithOutcome(SimpleLock lock) {
        return (lock instanceof TableLock held)
                ? Optional.of(new LockRelease(this.table, held.lock))
                : Optional.empty();
    }

    private void unlock(LockConfiguration lock) {
        try {
            this.table.unlock(lock);
        } catch (RuntimeException ex) {
            logger.warn(
                    "Could not release the lock of '{}'; it frees itself after its lockAtMostFor ({}): {}",
                    lock.getName(),
                    lock.getLockAtMostFor(),
                    ex.getMessage());
        }
    }

    /** A lock of dsched's table, released on its own unless its release joins an outcome's. */
    private final class TableLock implements SimpleLock {

        private final LockConfiguration lock;

        TableLock(LockConfiguration lock) {
            this.lock = lock;
        }

        @Override
        public void unlock() {
            JobGuard.this.unlock(this.lock);
        }
    }

    private LockConfiguration configuration(JobTarget job) {
        Duration atMostFor = (job.lockAtMostFor() != null) ? job.lockAtMostFor() : this.defaultAtMostFor;
        Duration atLeastFor = (job.lockAtLeastFor() != null) ? job.lockAtLeastFor() : this.defaultAtLeastFor;
        if (atLeastFor.compareTo(atMostFor) > 0) {
            atLeastFor = atMostFor;
        }
        return new LockConfiguration(this.clock.instant(), this.providerPrefix + job.name(), atMostFor, atLeastFor);
    }
}
