package io.dsched.internal.execution;

import io.dsched.execution.ExecutionListener;
import io.dsched.internal.store.LockRelease;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import net.javacrumbs.shedlock.core.SimpleLock;

/**
 * The overlap guard as an admission policy: a guarded job's attempt runs only with the job's
 * lock ({@link JobGuard}), and waits while another run holds it.
 */
final class GuardAdmission implements AdmissionPolicy {

    /** How long an attempt waits for another run's lock, and for this node's own release. */
    static final Duration RETRY = Duration.ofSeconds(1);

    static final String HELD = "waiting for another run of the job";

    private final JobGuard guard;

    /** Asks for the successes handed over to be written at once. */
    private final Runnable hurryOutcomes;

    /** Locks of jobs that succeeded here, by job, until their release is written with the outcome. */
    private final Map<String, CompletableFuture<Void>> releasing = new ConcurrentHashMap<>();

    /**
     * Creates the policy.
     * @param guard the overlap guard
     * @param hurryOutcomes asks for the successes handed over to be written at once, without
     *     waiting for the node's due fires to start: called before an attempt waits for the write
     *     that releases its job's lock
     */
    GuardAdmission(JobGuard guard, Runnable hurryOutcomes) {
        this.guard = guard;
        this.hurryOutcomes = hurryOutcomes;
    }

    @Override
    public Ticket admit(Attempt attempt) {
        JobTarget job = attempt.job().orElseThrow();
        if (attempt.guardTakenWithClaim() != null) {
            return Ticket.admitted(new GuardPermit(attempt.guardTakenWithClaim()));
        }
        if (!job.guarded() || isShard(attempt, job)) {
            // a shard runs beside its fire's other shards: the fire as a whole is guarded, by its
            // shards being held until every shard of the job's earlier fires has ended
            return Ticket.admitted(Permit.NONE);
        }
        // read first: a release written between a failed try and this read is still waited for
        CompletableFuture<Void> ownRelease = this.releasing.get(job.name());
        Optional<SimpleLock> lock = this.guard.tryLock(job);
        if (lock.isEmpty() && ownRelease != null) {
            lock = afterOwnRelease(job, ownRelease);
        }
        return lock.map((held) -> Ticket.admitted(new GuardPermit(held)))
                .orElseGet(() -> Ticket.held(RETRY, HELD, ExecutionListener.SkipReason.GUARD_HELD));
    }

    /** Whether a guarded job's attempt runs a shard of a fire, whether or not the job still declares shards. */
    private static boolean isShard(Attempt attempt, JobTarget job) {
        return job.guarded() && Sharding.shardOf(attempt.claim().idempotencyKey()) != null;
    }

    /**
     * When the last run of a job on this node succeeded and its lock is released with its
     * outcome, a next run finds the lock held until that outcome is written: asks for it to be
     * written at once, waits for it, briefly, and tries once more.
     */
    private Optional<SimpleLock> afterOwnRelease(JobTarget job, CompletableFuture<Void> release) {
        this.hurryOutcomes.run();
        try {
            release.get(RETRY.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        } catch (ExecutionException ex) {
            // done either way: written with its release, or released on its own
        } catch (TimeoutException ex) {
            // not written yet: the attempt waits as usual
            return Optional.empty();
        }
        return this.guard.tryLock(job);
    }

    /**
     * A job's lock held by its attempt: released when the attempt ends, or handed over to the
     * write of its outcome, which releases it in the same transaction.
     */
    final class GuardPermit implements Permit {

        private SimpleLock lock;

        GuardPermit(SimpleLock lock) {
            this.lock = lock;
        }

        /**
         * Hands the lock over to the write of a success, if that write can release it.
         * @param jobName the job
         * @param write releases the lock with the outcome once it is given the release
         * @return what the write completes, or {@code null} if the lock stays with this permit
         */
        CompletableFuture<Void> handOver(
                String jobName, java.util.function.Function<LockRelease, CompletableFuture<Void>> write) {
            Optional<LockRelease> release =
                    (this.lock != null) ? GuardAdmission.this.guard.releaseWithOutcome(this.lock) : Optional.empty();
            if (release.isEmpty()) {
                return null;
            }
            CompletableFuture<Void> written = write.apply(release.get());
            SimpleLock handedOver = this.lock;
            this.lock = null;
            GuardAdmission.this.releasing.put(jobName, written);
            written.whenComplete((ignored, ex) -> {
                if (ex != null && !(ex.getCause() instanceof io.dsched.internal.store.LostClaimException)) {
                    // the outcome's transaction did not commit, and its release with it
                    handedOver.unlock();
                }
                GuardAdmission.this.releasing.remove(jobName, written);
            });
            return written;
        }

        @Override
        public void release() {
            if (this.lock != null) {
                SimpleLock held = this.lock;
                this.lock = null;
                held.unlock();
            }
        }
    }
}
