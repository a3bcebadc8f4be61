package io.dsched.internal.execution;

import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.ExecutionStatus;
import java.time.Duration;

/** What follows from how an attempt's job ended: the pipeline's decision, which the record stage writes. */
sealed interface Verdict {

    /** The job returned normally. */
    record Succeeded() implements Verdict {}

    /**
     * Someone asked to stop the attempt while it ran: it ends {@code CANCELLED}, however its
     * method returned.
     *
     * @param stoppedBy who asked
     */
    record Stopped(String stoppedBy) implements Verdict {}

    /**
     * The attempt failed and has a retry left.
     *
     * @param status how it failed
     * @param backoff how long until the next attempt
     * @param next the next attempt, waiting
     */
    record Retry(ExecutionStatus status, Duration backoff, ExecutionRecord next) implements Verdict {}

    /**
     * The attempt failed for good.
     *
     * @param status how it failed
     * @param reason why it is not retried
     */
    record DeadLetter(ExecutionStatus status, String reason) implements Verdict {}
}
