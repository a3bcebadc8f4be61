package io.dsched.internal.execution;

import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.ExecutionStatus;
import io.dsched.execution.Outcome;
import io.dsched.internal.store.DeadLetter;
import io.dsched.internal.store.DeadLetterStatus;
import io.dsched.internal.store.ExecutionStore;
import io.dsched.internal.store.LostClaimException;
import io.dsched.internal.store.TransientFailures;
import io.dsched.internal.text.BoundedText;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The pipeline's record stage: writes an attempt's outcome with what the decision made follow
 * from it, a retry or a dead letter, in one transaction. A write whose claim another node took
 * over meanwhile is refused ({@link Outcome#LOST}); one that meets an unreachable database is
 * tried again for a while.
 */
final class Recording {

    /** Longest stack trace kept in a dead letter, in characters. */
    static final int MAX_STACK_TRACE = 16_000;

    /** How long to keep trying to record an outcome while the database is unreachable. */
    private static final Duration OUTCOME_PATIENCE = Duration.ofMinutes(5);

    private final ExecutionStore store;

    private final String nodeId;

    private final Clock clock;

    Recording(ExecutionStore store, String nodeId, Clock clock) {
        this.store = store;
        this.nodeId = nodeId;
        this.clock = clock;
    }

    /** Records an attempt not run, with the reason. */
    Outcome skip(ExecutionRecord claim, String reason) {
        return record(
                () -> {
                    Instant now = this.clock.instant();
                    this.store.outcomes().finish(claim, ExecutionStatus.SKIPPED, now, now, null, reason);
                },
                Outcome.SKIPPED);
    }

    /** Puts an attempt held back by admission back to wait, claimed by no node. */
    Outcome defer(ExecutionRecord claim, Duration wait, String reason) {
        this.store.outcomes().defer(claim, this.clock.instant().plus(wait), reason);
        return Outcome.DEFERRED;
    }

    /**
     * Queues the write of a success, which releases the job's lock with it when it can.
     * @return completes once the success is written, exceptionally if it is not
     */
    CompletableFuture<Void> succeed(ExecutionRecord claim, Invocation.Result result, Permits permits) {
        GuardAdmission.GuardPermit guard = permits.guard();
        CompletableFuture<Void> withRelease = (guard != null)
                ? guard.handOver(claim.jobName(), (release) -> this.store
                        .outcomes()
                        .succeed(claim, result.startedAt(), result.finishedAt(), release))
                : null;
        return (withRelease != null)
                ? withRelease
                : this.store.outcomes().succeed(claim, result.startedAt(), result.finishedAt(), null);
    }

    /** Records an attempt stopped on request, however its method returned. */
    Outcome stopped(ExecutionRecord claim, Invocation.Result result, String stoppedBy) {
        return record(
                () -> this.store
                        .outcomes()
                        .cancel(claim, result.startedAt(), result.finishedAt(), result.failure(), stoppedBy),
                Outcome.CANCELLED);
    }

    /**
     * Records a failed attempt with its retry or dead letter, or {@code CANCELLED} if someone
     * asked to stop it meanwhile.
     * @return what was recorded, and who asked to stop the attempt if anyone did
     */
    Recorded failed(ExecutionRecord claim, Invocation.Result result, Verdict verdict) {
        AtomicReference<String> stoppedBy = new AtomicReference<>();
        Throwable failure = result.failure();
        Runnable write;
        Outcome outcome;
        if (verdict instanceof Verdict.Retry retry) {
            write = () -> this.store
                    .outcomes()
                    .failAndRetry(
                            claim,
                            retry.status(),
                            result.startedAt(),
                            result.finishedAt(),
                            failure,
                            null,
                            retry.next());
            outcome = Outcome.RETRY_SCHEDULED;
        } else {
            Verdict.DeadLetter dead = (Verdict.DeadLetter) verdict;
            write = () -> this.store
                    .outcomes()
                    .deadLetter(
                            claim,
                            result.startedAt(),
                            result.finishedAt(),
                            failure,
                            dead.reason(),
                            (firstFailure) -> letter(claim, failure, firstFailure, result.finishedAt()));
            outcome = Outcome.DEAD_LETTERED;
        }
        Outcome recorded = record(
                () -> stoppedBy.set(this.store
                        .outcomes()
                        .failUnlessStopped(claim, result.startedAt(), result.finishedAt(), failure, write)
                        .orElse(null)),
                outcome);
        return new Recorded(recorded, (recorded != Outcome.LOST) ? stoppedBy.get() : null);
    }

    /**
     * What the record stage wrote for a failed attempt.
     *
     * @param outcome what it recorded
     * @param stoppedBy who asked to stop the attempt before its failure was written, in which case
     *     it was recorded {@code CANCELLED}; or {@code null}
     */
    record Recorded(Outcome outcome, String stoppedBy) {}

    private DeadLetter letter(ExecutionRecord claim, Throwable failure, Instant firstFailure, Instant lastFailure) {
        return new DeadLetter(
                null,
                claim.jobName(),
                claim.scheduledAt(),
                claim.idempotencyKey(),
                claim.attempt(),
                claim.id(),
                failure.getClass().getName(),
                BoundedText.cut(String.valueOf(failure.getMessage()), 2000),
                BoundedText.cut(stackTrace(failure), MAX_STACK_TRACE),
                claim.payload(),
                firstFailure,
                lastFailure,
                this.nodeId,
                DeadLetterStatus.OPEN,
                null,
                null,
                null);
    }

    private Outcome record(Runnable write, Outcome outcome) {
        try {
            TransientFailures.retry("the outcome " + outcome, OUTCOME_PATIENCE, () -> {
                write.run();
                return outcome;
            });
            return outcome;
        } catch (LostClaimException ex) {
            AttemptReport.logger.warn("Not recording {}: {}", outcome, ex.getMessage());
            return Outcome.LOST;
        }
    }

    private static String stackTrace(Throwable failure) {
        StringWriter text = new StringWriter();
        failure.printStackTrace(new PrintWriter(text));
        return text.toString();
    }
}
