package io.dsched.internal.execution;

import io.dsched.execution.ExecutionOrigin;
import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.ExecutionStatus;
import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * The pipeline's decision stage: from how an attempt's job ended and the job's retry policy,
 * decides whether the attempt is done, retried or dead-lettered. It reads nothing and writes
 * nothing.
 */
final class Verdicts {

    private final String nodeId;

    private final RandomGenerator random;

    /**
     * Creates the stage.
     * @param nodeId this node, which schedules the retries it decides
     * @param random the source of retry jitter
     */
    Verdicts(String nodeId, RandomGenerator random) {
        this.nodeId = nodeId;
        this.random = random;
    }

    /**
     * Decides what follows from an attempt's end.
     * @param job what the attempt ran
     * @param claim the attempt
     * @param result how its job ended
     * @return the verdict
     */
    Verdict decide(JobTarget job, ExecutionRecord claim, Invocation.Result result) {
        if (result.stoppedBy() != null) {
            return new Verdict.Stopped(result.stoppedBy());
        }
        Throwable failure = result.failure();
        if (failure == null) {
            return new Verdict.Succeeded();
        }
        ExecutionStatus status = result.timedOut() ? ExecutionStatus.TIMED_OUT : ExecutionStatus.FAILED;
        if (job.retry().shouldRetry(claim.attempt(), failure)) {
            Duration backoff = job.retry().backoff(claim.attempt(), this.random);
            ExecutionRecord next = claim.next(
                    ExecutionOrigin.RETRY,
                    this.nodeId,
                    result.finishedAt(),
                    result.finishedAt().plus(backoff),
                    "retry after " + status + " of attempt " + claim.attempt());
            return new Verdict.Retry(status, backoff, next);
        }
        String reason = job.retry().isRetryable(failure)
                ? "no retry left after " + claim.attempt() + " attempts"
                : "not retryable: " + failure.getClass().getSimpleName();
        return new Verdict.DeadLetter(status, reason);
    }
}
