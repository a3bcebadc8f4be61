package io.dsched.internal.execution;

import io.dsched.execution.ExecutionListener;
import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.Outcome;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pipeline's last stage: tells the log and the listeners what became of an attempt. Its log
 * lines keep the category {@code io.dsched.internal.execution.AttemptRunner}, which applications' log
 * configurations name.
 */
final class AttemptReport {

    static final Logger logger = LoggerFactory.getLogger("io.dsched.internal.execution.AttemptRunner");

    private final String nodeId;

    private final ExecutionListener listener;

    AttemptReport(String nodeId, ExecutionListener listener) {
        this.nodeId = nodeId;
        this.listener = listener;
    }

    void notDeclared(ExecutionRecord claim) {
        logger.warn(
                "Skipping '{}' scheduled at {}: the job is not declared on node {}",
                claim.jobName(),
                claim.scheduledAt(),
                this.nodeId);
        this.listener.skipped(claim.jobName(), ExecutionListener.SkipReason.NOT_DECLARED);
    }

    void heldBack(ExecutionRecord claim, Ticket hold) {
        logger.debug("Deferring attempt {} of '{}': {}", claim.attempt(), claim.jobName(), hold.reason());
        this.listener.skipped(claim.jobName(), hold.reported());
    }

    void succeeded(ExecutionRecord claim, Invocation.Result result) {
        this.listener.finished(claim, Outcome.SUCCEEDED, result.duration(), null);
    }

    void successNotWritten(ExecutionRecord claim, Throwable ex) {
        logger.warn(
                "Not recording SUCCEEDED of attempt {} of '{}': {}",
                claim.attempt(),
                claim.jobName(),
                (ex.getCause() != null) ? ex.getCause().getMessage() : ex.getMessage());
    }

    void stopped(ExecutionRecord claim, Invocation.Result result, String stoppedBy, Outcome outcome) {
        logger.info(
                "Attempt {} of '{}' scheduled at {} stopped, as {} asked",
                claim.attempt(),
                claim.jobName(),
                claim.scheduledAt(),
                stoppedBy);
        this.listener.finished(claim, outcome, result.duration(), result.failure());
    }

    /**
     * Reports a failed attempt.
     * @return what became of it: as recorded, or {@code CANCELLED} if it was stopped meanwhile
     */
    Outcome failed(ExecutionRecord claim, Invocation.Result result, Verdict verdict, Recording.Recorded recorded) {
        Throwable failure = result.failure();
        Outcome outcome = recorded.outcome();
        if (recorded.stoppedBy() != null) {
            logger.info(
                    "Attempt {} of '{}' scheduled at {} failed ({}) after {} asked to stop it; not retried",
                    claim.attempt(),
                    claim.jobName(),
                    claim.scheduledAt(),
                    failure.toString(),
                    recorded.stoppedBy());
            outcome = Outcome.CANCELLED;
        } else if (verdict instanceof Verdict.Retry retry) {
            logger.warn(
                    "Attempt {} of '{}' scheduled at {} failed ({}); retrying in {}",
                    claim.attempt(),
                    claim.jobName(),
                    claim.scheduledAt(),
                    failure.toString(),
                    retry.backoff());
            logger.debug("Failure of attempt {} of '{}'", claim.attempt(), claim.jobName(), failure);
        } else {
            logger.error(
                    "Dead-lettering '{}' scheduled at {} after attempt {} ({})",
                    claim.jobName(),
                    claim.scheduledAt(),
                    claim.attempt(),
                    ((Verdict.DeadLetter) verdict).reason(),
                    failure);
        }
        this.listener.finished(claim, outcome, result.duration(), failure);
        return outcome;
    }
}
