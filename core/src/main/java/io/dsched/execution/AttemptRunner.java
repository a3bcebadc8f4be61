package io.dsched.execution;

import io.dsched.store.DeadLetter;
import io.dsched.store.DeadLetterStatus;
import io.dsched.store.ExecutionOrigin;
import io.dsched.store.ExecutionRecord;
import io.dsched.store.ExecutionStatus;
import io.dsched.store.ExecutionStore;
import io.dsched.store.ExecutionStore.LostClaimException;
import io.dsched.store.LockTable;
import io.dsched.store.TransientFailures;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.random.RandomGenerator;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * Runs one claimed attempt on this node: takes the job's guard, invokes it within its timeout,
 * and records the outcome together with what follows from it (a retry or a dead letter).
 */
public final class AttemptRunner implements AutoCloseable {

    /** Longest stack trace kept in a dead letter, in characters. */
    static final int MAX_STACK_TRACE = 16_000;

    private static final Duration GUARD_RETRY = Duration.ofSeconds(1);

    /** How long to keep trying to record an outcome while the database is unreachable. */
    private static final Duration OUTCOME_PATIENCE = Duration.ofMinutes(5);

    private static final Logger logger = LoggerFactory.getLogger(AttemptRunner.class);

    private final JobTargets targets;

    private final ExecutionStore store;

    private final JobGuard guard;

    private final String nodeId;

    private final Clock clock;

    private final RandomGenerator random;

    private final ScheduledExecutorService watchdog;

    private final ExecutionListener listener;

    private final AttemptObserver observer;

    private final StopRequests stops;

    private final Set<Long> inFlight = ConcurrentHashMap.newKeySet();

    /** Guards of jobs that succeeded here, by job, until their release is written with the outcome. */
    private final Map<String, CompletableFuture<Void>> releasing = new ConcurrentHashMap<>();

    /**
     * Creates a runner.
     * @param targets the jobs and handlers this node can run
     * @param store the execution history
     * @param guard the overlap guard
     * @param nodeId this node
     * @param clock the clock
     * @param random the source of retry jitter
     * @param listener hears what becomes of each attempt
     * @param observer wraps each attempt, for tracing
     * @param stops stops the attempts someone asked to stop
     */
    public AttemptRunner(
            JobTargets targets,
            ExecutionStore store,
            JobGuard guard,
            String nodeId,
            Clock clock,
            RandomGenerator random,
            ExecutionListener listener,
            AttemptObserver observer,
            StopRequests stops) {
        this.stops = stops;
        this.listener = listener;
        this.observer = observer;
        this.targets = targets;
        this.store = store;
        this.guard = guard;
        this.nodeId = nodeId;
        this.clock = clock;
        this.random = random;
        this.watchdog = Executors.newSingleThreadScheduledExecutor((runnable) -> {
            Thread thread = new Thread(runnable, "dsched-timeouts");
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * Returns this node's id.
     * @return the node id
     */
    public String nodeId() {
        return this.nodeId;
    }

    /**
     * Returns the attempts this node is running right now.
     * @return their execution ids
     */
    public Set<Long> inFlight() {
        return Set.copyOf(this.inFlight);
    }

    /**
     * Marks an attempt as in flight on this node from the moment it is claimed, before a worker
     * runs it.
     * @param executionId the claimed attempt
     */
    public void hold(long executionId) {
        this.inFlight.add(executionId);
    }

    /**
     * Runs a claimed attempt to its recorded outcome.
     * @param claim the attempt, running on this node
     * @return what became of it
     */
    public Outcome run(ExecutionRecord claim) {
        return run(claim, null, null);
    }

    /**
     * Runs a claimed attempt to its recorded outcome.
     * @param claim the attempt, running on this node
     * @param job what it runs, as found when it was claimed, or {@code null} to look it up here
     * @param heldGuard the job's lock, taken with the claim, or {@code null} to take it here if the
     *     job is guarded
     * @return what became of it
     */
    public Outcome run(ExecutionRecord claim, JobTarget job, SimpleLock heldGuard) {
        this.inFlight.add(claim.id());
        Outcome outcome = null;
        try {
            outcome =
                    runClaimed(claim, (job != null) ? Optional.of(job) : this.targets.find(claim.jobName()), heldGuard);
            return outcome;
        } finally {
            if (outcome != Outcome.SUCCEEDED) {
                // a success stays in flight until its outcome is written
                this.inFlight.remove(claim.id());
            }
        }
    }

    private Outcome runClaimed(ExecutionRecord claim, Optional<JobTarget> target, SimpleLock heldGuard) {
        if (target.isEmpty()) {
            if (heldGuard != null) {
                heldGuard.unlock();
            }
            logger.warn(
                    "Skipping '{}' scheduled at {}: the job is not declared on node {}",
                    claim.jobName(),
                    claim.scheduledAt(),
                    this.nodeId);
            this.listener.skipped(claim.jobName(), ExecutionListener.SkipReason.NOT_DECLARED);
            return record(() -> skip(claim, "job is not declared on node " + this.nodeId), Outcome.SKIPPED);
        }
        JobTarget job = target.get();
        Optional<SimpleLock> lock;
        try {
            if (heldGuard != null) {
                lock = Optional.of(heldGuard);
            } else if (job.guarded()) {
                // read first: a release written between a failed try and this read is still waited for
                CompletableFuture<Void> ownRelease = this.releasing.get(job.name());
                lock = this.guard.tryLock(job);
                if (lock.isEmpty() && ownRelease != null) {
                    lock = afterOwnRelease(job, ownRelease);
                }
            } else {
                lock = Optional.empty();
            }
        } catch (RuntimeException ex) {
            // the database did not answer: the attempt stays claimed, and the membership's sweep
            // of stale attempts runs it again once the database is back
            logger.warn("Could not take the lock of '{}': {}", job.name(), ex.getMessage());
            return Outcome.LOST;
        }
        if (job.guarded() && lock.isEmpty()) {
            return guardHeld(claim);
        }
        HeldGuard held = new HeldGuard(lock.orElse(null));
        try {
            return invoke(job, claim, held);
        } finally {
            held.release();
        }
    }

    /**
     * When the last run of a job on this node succeeded and its guard is released with its
     * outcome, a next run finds the guard held until that outcome is written: waits for it,
     * briefly, and tries once more.
     */
    private Optional<SimpleLock> afterOwnRelease(JobTarget job, CompletableFuture<Void> release) {
        try {
            release.get(GUARD_RETRY.toMillis(), TimeUnit.MILLISECONDS);
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

    private Outcome guardHeld(ExecutionRecord claim) {
        // never skipped: the attempt waits until the run holding the lock is done
        logger.debug(
                "Deferring attempt {} of '{}': another run of the job holds its lock",
                claim.attempt(),
                claim.jobName());
        this.store
                .outcomes()
                .defer(claim, this.clock.instant().plus(GUARD_RETRY), "waiting for another run of the job");
        this.listener.skipped(claim.jobName(), ExecutionListener.SkipReason.GUARD_HELD);
        return Outcome.DEFERRED;
    }

    private Outcome invoke(JobTarget job, ExecutionRecord claim, HeldGuard held) {
        AttemptObserver.Observed observed = this.observer.start(claim);
        Outcome outcome = null;
        try {
            outcome = invoke(job, claim, observed, held);
            return outcome;
        } finally {
            observed.stop(outcome);
        }
    }

    private Outcome invoke(JobTarget job, ExecutionRecord claim, AttemptObserver.Observed observed, HeldGuard held) {
        StopRequests.Running running = this.stops.start(claim.id());
        Context context = new Context(claim, running);
        AtomicBoolean timedOut = new AtomicBoolean();
        Instant startedAt = this.clock.instant();
        this.listener.started(claim, startedAt);
        Thread worker = Thread.currentThread();
        ScheduledFuture<?> interrupt = (job.timeout() != null)
                ? this.watchdog.schedule(
                        () -> {
                            timedOut.set(true);
                            worker.interrupt();
                        },
                        job.timeout().toMillis(),
                        TimeUnit.MILLISECONDS)
                : null;
        Throwable failure = null;
        try (MDC.MDCCloseable j = MDC.putCloseable("dsched.job", job.name());
                MDC.MDCCloseable e = MDC.putCloseable("dsched.execution", String.valueOf(claim.id()));
                MDC.MDCCloseable a = MDC.putCloseable("dsched.attempt", String.valueOf(claim.attempt()));
                MDC.MDCCloseable n = MDC.putCloseable("dsched.node", this.nodeId)) {
            job.invoker().invoke(context, claim.payload());
        } catch (Throwable ex) {
            failure = ex;
        } finally {
            if (interrupt != null) {
                interrupt.cancel(false);
            }
            if (running.end()) {
                // interrupted on a request to stop it: clear what the job did not consume
                Thread.interrupted();
            }
        }
        if (timedOut.get()) {
            // clear an interrupt that the job did not consume, so the worker thread stays usable
            Thread.interrupted();
            failure = new JobTimeoutException(job.name(), job.timeout());
        }
        Instant finishedAt = this.clock.instant();
        if (running.stoppedBy() != null) {
            return stopped(claim, startedAt, finishedAt, failure, running.stoppedBy());
        }
        if (failure == null) {
            LockTable.Release release = held.releasableWithOutcome(this.guard);
            CompletableFuture<Void> written = this.store.outcomes().succeed(claim, startedAt, finishedAt, release);
            // queued: from here the outcome's write releases the guard, or the callback below does
            SimpleLock handedOver = (release != null) ? held.handOver() : null;
            if (handedOver != null) {
                this.releasing.put(job.name(), written);
            }
            written.whenComplete((ignored, ex) -> {
                this.inFlight.remove(claim.id());
                if (handedOver != null) {
                    if (ex != null && !(ex.getCause() instanceof LostClaimException)) {
                        // the outcome's transaction did not commit, and its release with it
                        handedOver.unlock();
                    }
                    this.releasing.remove(job.name(), written);
                }
                if (ex != null) {
                    logger.warn(
                            "Not recording SUCCEEDED of attempt {} of '{}': {}",
                            claim.attempt(),
                            claim.jobName(),
                            (ex.getCause() != null) ? ex.getCause().getMessage() : ex.getMessage());
                }
            });
            this.listener.finished(claim, Outcome.SUCCEEDED, Duration.between(startedAt, finishedAt), null);
            return Outcome.SUCCEEDED;
        }
        observed.failed(failure);
        Outcome outcome = failed(job, claim, startedAt, finishedAt, failure, timedOut.get());
        this.listener.finished(claim, outcome, Duration.between(startedAt, finishedAt), failure);
        if (failure instanceof VirtualMachineError error) {
            throw error;
        }
        return outcome;
    }

    /** The outcome of an attempt stopped on request, however its method returned. */
    private Outcome stopped(
            ExecutionRecord claim, Instant startedAt, Instant finishedAt, Throwable failure, String stoppedBy) {
        logger.info(
                "Attempt {} of '{}' scheduled at {} stopped, as {} asked",
                claim.attempt(),
                claim.jobName(),
                claim.scheduledAt(),
                stoppedBy);
        Outcome outcome = record(
                () -> this.store.outcomes().cancel(claim, startedAt, finishedAt, failure, stoppedBy),
                Outcome.CANCELLED);
        this.listener.finished(claim, outcome, Duration.between(startedAt, finishedAt), failure);
        if (failure instanceof VirtualMachineError error) {
            throw error;
        }
        return outcome;
    }

    private Outcome failed(
            JobTarget job,
            ExecutionRecord claim,
            Instant startedAt,
            Instant finishedAt,
            Throwable failure,
            boolean timedOut) {
        ExecutionStatus status = timedOut ? ExecutionStatus.TIMED_OUT : ExecutionStatus.FAILED;
        AtomicReference<String> stoppedBy = new AtomicReference<>();
        Outcome outcome;
        Runnable log;
        if (job.retry().shouldRetry(claim.attempt(), failure)) {
            Duration backoff = job.retry().backoff(claim.attempt(), this.random);
            ExecutionRecord next = claim.next(
                    ExecutionOrigin.RETRY,
                    this.nodeId,
                    finishedAt,
                    finishedAt.plus(backoff),
                    "retry after " + status + " of attempt " + claim.attempt());
            outcome = record(
                    unlessStopped(claim, startedAt, finishedAt, failure, stoppedBy, () -> this.store
                            .outcomes()
                            .failAndRetry(claim, status, startedAt, finishedAt, failure, null, next)),
                    Outcome.RETRY_SCHEDULED);
            log = () -> {
                logger.warn(
                        "Attempt {} of '{}' scheduled at {} failed ({}); retrying in {}",
                        claim.attempt(),
                        job.name(),
                        claim.scheduledAt(),
                        failure.toString(),
                        backoff);
                logger.debug("Failure of attempt {} of '{}'", claim.attempt(), job.name(), failure);
            };
        } else {
            String reason = job.retry().isRetryable(failure)
                    ? "no retry left after " + claim.attempt() + " attempts"
                    : "not retryable: " + failure.getClass().getSimpleName();
            outcome = record(
                    unlessStopped(claim, startedAt, finishedAt, failure, stoppedBy, () -> this.store
                            .outcomes()
                            .deadLetter(
                                    claim,
                                    startedAt,
                                    finishedAt,
                                    failure,
                                    reason,
                                    (firstFailure) -> letter(claim, failure, firstFailure, finishedAt))),
                    Outcome.DEAD_LETTERED);
            log = () -> logger.error(
                    "Dead-lettering '{}' scheduled at {} after attempt {} ({})",
                    job.name(),
                    claim.scheduledAt(),
                    claim.attempt(),
                    reason,
                    failure);
        }
        if (outcome != Outcome.LOST && stoppedBy.get() != null) {
            logger.info(
                    "Attempt {} of '{}' scheduled at {} failed ({}) after {} asked to stop it; not retried",
                    claim.attempt(),
                    claim.jobName(),
                    claim.scheduledAt(),
                    failure.toString(),
                    stoppedBy.get());
            return Outcome.CANCELLED;
        }
        log.run();
        return outcome;
    }

    /** Writes a failed attempt's outcome, or {@code CANCELLED} if someone asked to stop it. */
    private Runnable unlessStopped(
            ExecutionRecord claim,
            Instant startedAt,
            Instant finishedAt,
            Throwable failure,
            AtomicReference<String> stoppedBy,
            Runnable write) {
        return () -> stoppedBy.set(this.store
                .outcomes()
                .failUnlessStopped(claim, startedAt, finishedAt, failure, write)
                .orElse(null));
    }

    private DeadLetter letter(ExecutionRecord claim, Throwable failure, Instant firstFailure, Instant lastFailure) {
        return new DeadLetter(
                null,
                claim.jobName(),
                claim.scheduledAt(),
                claim.idempotencyKey(),
                claim.attempt(),
                claim.id(),
                failure.getClass().getName(),
                truncate(String.valueOf(failure.getMessage()), 2000),
                truncate(stackTrace(failure), MAX_STACK_TRACE),
                claim.payload(),
                firstFailure,
                lastFailure,
                this.nodeId,
                DeadLetterStatus.OPEN,
                null,
                null,
                null);
    }

    private void skip(ExecutionRecord claim, String reason) {
        Instant now = this.clock.instant();
        this.store.outcomes().finish(claim, ExecutionStatus.SKIPPED, now, now, null, reason);
    }

    private Outcome record(Runnable write, Outcome outcome) {
        try {
            TransientFailures.retry("the outcome " + outcome, OUTCOME_PATIENCE, () -> {
                write.run();
                return outcome;
            });
            return outcome;
        } catch (LostClaimException ex) {
            logger.warn("Not recording {}: {}", outcome, ex.getMessage());
            return Outcome.LOST;
        }
    }

    private static String stackTrace(Throwable failure) {
        StringWriter text = new StringWriter();
        failure.printStackTrace(new PrintWriter(text));
        return text.toString();
    }

    private static String truncate(String text, int max) {
        return (text.length() <= max) ? text : text.substring(0, max - 1) + "…";
    }

    @Override
    public void close() {
        this.watchdog.shutdownNow();
    }

    /** What became of an attempt on this node. */
    public enum Outcome {
        /** Another node, or an earlier delivery, had claimed it. */
        ALREADY_CLAIMED,
        /** Not run, with the reason recorded. */
        SKIPPED,
        /** Put back to wait, because another run of the job holds its guard. */
        DEFERRED,
        /** Ran and succeeded; its outcome is being written. */
        SUCCEEDED,
        /** Failed; the next attempt is scheduled. */
        RETRY_SCHEDULED,
        /** Failed for good; the fire is dead-lettered. */
        DEAD_LETTERED,
        /** Ran, but another node took it over meanwhile, so its outcome was not recorded. */
        LOST,
        /** Stopped because someone asked to; recorded {@code CANCELLED}, neither retried nor dead-lettered. */
        CANCELLED
    }

    /** The guard a run holds, until it is released or handed over to the run's outcome. */
    private static final class HeldGuard {

        private SimpleLock lock;

        HeldGuard(SimpleLock lock) {
            this.lock = lock;
        }

        /** How the outcome's write can release the guard, or {@code null} if it cannot. */
        LockTable.Release releasableWithOutcome(JobGuard guard) {
            return (this.lock != null) ? guard.releaseWithOutcome(this.lock).orElse(null) : null;
        }

        /** Gives the guard up to the outcome's write, which now releases it. */
        SimpleLock handOver() {
            SimpleLock handedOver = this.lock;
            this.lock = null;
            return handedOver;
        }

        void release() {
            if (this.lock != null) {
                SimpleLock held = this.lock;
                this.lock = null;
                held.unlock();
            }
        }
    }

    private final class Context implements JobContext {

        private final ExecutionRecord claim;

        private final StopRequests.Running running;

        Context(ExecutionRecord claim, StopRequests.Running running) {
            this.claim = claim;
            this.running = running;
        }

        @Override
        public boolean isCancelled() {
            return this.running.stoppedBy() != null;
        }

        @Override
        public String jobName() {
            return this.claim.jobName();
        }

        @Override
        public Instant scheduledAt() {
            return this.claim.scheduledAt();
        }

        @Override
        public int attempt() {
            return this.claim.attempt();
        }

        @Override
        public String idempotencyKey() {
            return this.claim.idempotencyKey();
        }

        @Override
        public String nodeId() {
            return AttemptRunner.this.nodeId;
        }

        @Override
        public long executionId() {
            return this.claim.id();
        }
    }
}
