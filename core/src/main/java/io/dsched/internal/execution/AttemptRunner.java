package io.dsched.internal.execution;

import io.dsched.execution.ExecutionListener;
import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.Outcome;
import io.dsched.internal.store.ExecutionStore;
import java.time.Clock;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.random.RandomGenerator;

/**
 * Runs one claimed attempt on this node through the stages of its pipeline, each of which only
 * hands forward: admit ({@link Admission}, where the job's guard holds an attempt back), invoke
 * ({@link Invocation}, within the job's timeout), decide ({@link Verdicts}: done, retried or
 * dead-lettered), record ({@link Recording}: the outcome with its consequence, in one
 * transaction) and report ({@link AttemptReport}). Every attempt enters claimed: a fire claimed
 * by the {@link FireExecutor}, a waiting attempt (a retry, a recovery, a replay, a manual trigger
 * or a one-off) by the queue.
 */
public final class AttemptRunner implements AutoCloseable {

    private final JobTargets targets;

    private final String nodeId;

    private final Admission admission;

    private final Invocation invocation;

    private final Verdicts verdicts;

    private final Recording recording;

    private final AttemptReport report;

    private final AttemptObserver observer;

    private final Set<Long> inFlight = ConcurrentHashMap.newKeySet();

    /**
     * Attempts claimed for a worker that has not started them, with the instant each was handed
     * over to it ({@link Instant#MAX} until then).
     */
    private final Map<Long, Instant> held = new ConcurrentHashMap<>();

    private final Clock clock;

    /** Hears of each attempt whose outcome was written, by its job or handler name. */
    private volatile Consumer<String> outcomeWritten = (name) -> {};

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
        this.targets = targets;
        this.nodeId = nodeId;
        this.admission = new Admission(List.of(new GuardAdmission(guard, store.outcomes()::hurry)));
        this.invocation = new Invocation(nodeId, clock, stops, listener);
        this.verdicts = new Verdicts(nodeId, random);
        this.recording = new Recording(store, nodeId, clock);
        this.report = new AttemptReport(nodeId, listener);
        this.observer = observer;
        this.clock = clock;
    }

    /**
     * Returns this node's id.
     * @return the node id
     */
    public String nodeId() {
        return this.nodeId;
    }

    /**
     * Returns the attempts this node is running or holds for a worker.
     * @return their execution ids
     */
    public Set<Long> inFlight() {
        // held before running: a worker that starts an attempt adds it to the running ones before
        // it stops holding it, so that no read in between misses it
        Set<Long> all = new HashSet<>(this.held.keySet());
        all.addAll(this.inFlight);
        return all;
    }

    /**
     * Returns the attempts this node is running or holds for a worker, counting one handed over to
     * its worker only if it was handed over after the given instant: a worker that has not started
     * an attempt by then never will, and it is let go.
     * @param handedOverAfter the instant
     * @return their execution ids
     */
    public Set<Long> inFlight(Instant handedOverAfter) {
        // one handed over earlier is let go: Quartz never gave its worker the fire
        this.held.values().removeIf((handedOver) -> !handedOver.isAfter(handedOverAfter));
        return inFlight();
    }

    /**
     * Holds an attempt claimed in the transaction that fires it for a worker, from the moment it is
     * claimed until its worker starts it, it is {@link #letGo let go}, or it was {@link #handOver
     * handed over} longer ago than {@link #inFlight(Instant)} is asked about.
     * @param executionId the claimed attempt
     */
    public void hold(long executionId) {
        this.held.put(executionId, Instant.MAX);
    }

    /**
     * Notes that a held attempt has been handed over to the worker that will run it.
     * @param executionId the attempt
     */
    public void handOver(long executionId) {
        this.held.replace(executionId, this.clock.instant());
    }

    /**
     * Tells a listener of each attempt this runner ran whose outcome has been written, so that the
     * attempt no longer counts as running in the database: the queue claims again for a limited
     * target whose slot came free.
     * @param listener takes the attempt's job or handler name
     */
    public void whenOutcomeWritten(Consumer<String> listener) {
        this.outcomeWritten = listener;
    }

    /**
     * Lets go of a held attempt that this node will not run after all.
     * @param executionId the attempt
     */
    public void letGo(long executionId) {
        this.held.remove(executionId);
    }

    /**
     * Runs a claimed attempt to its recorded outcome.
     * @param claim the attempt, running on this node
     * @return what became of it
     */
    public Outcome run(ExecutionRecord claim) {
        return run(new Attempt(claim, this.targets.find(claim.jobName()).orElse(null), null));
    }

    /**
     * Runs a claimed attempt to its recorded outcome.
     * @param attempt the attempt, running on this node
     * @return what became of it
     */
    public Outcome run(Attempt attempt) {
        ExecutionRecord claim = attempt.claim();
        this.inFlight.add(claim.id());
        this.held.remove(claim.id());
        Outcome outcome = null;
        try {
            outcome = admitted(attempt);
            return outcome;
        } finally {
            if (outcome != Outcome.SUCCEEDED) {
                // a success stays in flight until its outcome is written
                this.inFlight.remove(claim.id());
            }
        }
    }

    private Outcome admitted(Attempt attempt) {
        ExecutionRecord claim = attempt.claim();
        if (attempt.job().isEmpty()) {
            if (attempt.guardTakenWithClaim() != null) {
                attempt.guardTakenWithClaim().unlock();
            }
            this.report.notDeclared(claim);
            return this.recording.skip(claim, "job is not declared on node " + this.nodeId);
        }
        AdmissionDecision admitted;
        try {
            admitted = this.admission.admit(attempt);
        } catch (RuntimeException ex) {
            // the database did not answer: the attempt stays claimed, and the membership's sweep
            // of stale attempts runs it again once the database is back
            AttemptReport.logger.warn("Could not admit '{}': {}", claim.jobName(), ex.getMessage());
            return Outcome.LOST;
        }
        if (!admitted.admitted()) {
            // never skipped: the attempt waits until what holds it back lets it go
            Outcome deferred = this.recording.defer(
                    claim, admitted.hold().delay(), admitted.hold().reason());
            this.report.heldBack(claim, admitted.hold());
            return deferred;
        }
        try {
            return observed(attempt.job().get(), claim, admitted.permits());
        } finally {
            admitted.permits().release();
        }
    }

    private Outcome observed(JobTarget job, ExecutionRecord claim, Permits permits) {
        AttemptObserver.Observed observed = this.observer.start(claim);
        Outcome outcome = null;
        try {
            Invocation.Result result = this.invocation.invoke(job, claim);
            Verdict verdict = this.verdicts.decide(job, claim, result);
            if (!(verdict instanceof Verdict.Stopped) && result.failure() != null) {
                observed.failed(result.failure());
            }
            outcome = recordAndReport(claim, result, verdict, permits);
            if (result.failure() instanceof VirtualMachineError error) {
                throw error;
            }
            return outcome;
        } finally {
            observed.stop(outcome);
        }
    }

    private Outcome recordAndReport(ExecutionRecord claim, Invocation.Result result, Verdict verdict, Permits permits) {
        if (verdict instanceof Verdict.Succeeded) {
            CompletableFuture<Void> written = this.recording.succeed(claim, result, permits);
            written.whenComplete((ignored, ex) -> {
                this.inFlight.remove(claim.id());
                if (ex != null) {
                    this.report.successNotWritten(claim, ex);
                } else {
                    this.outcomeWritten.accept(claim.jobName());
                }
            });
            this.report.succeeded(claim, result);
            return Outcome.SUCCEEDED;
        }
        if (verdict instanceof Verdict.Stopped stopped) {
            Outcome outcome = this.recording.stopped(claim, result, stopped.stoppedBy());
            this.outcomeWritten.accept(claim.jobName());
            this.report.stopped(claim, result, stopped.stoppedBy(), outcome);
            return outcome;
        }
        Outcome failed = this.report.failed(claim, result, verdict, this.recording.failed(claim, result, verdict));
        this.outcomeWritten.accept(claim.jobName());
        return failed;
    }

    @Override
    public void close() {
        this.invocation.close();
    }
}
