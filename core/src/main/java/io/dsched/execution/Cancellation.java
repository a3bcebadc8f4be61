package io.dsched.execution;

/**
 * What a request to cancel an attempt did.
 *
 * @param executionId the attempt, or {@code null} if none was found
 * @param before the attempt's state when the request reached it, or {@code null} if none was found
 * @param result what became of the request
 */
public record Cancellation(Long executionId, ExecutionStatus before, Result result) {

    /** What became of a request to cancel an attempt. */
    public enum Result {
        /** The attempt was waiting ({@code SCHEDULED} or {@code RETRY_SCHEDULED}); it is now {@code CANCELLED} and never runs. */
        CANCELLED,
        /**
         * The attempt is running: the node running it flags its {@code JobContext.isCancelled()}, then
         * interrupts it after the grace; it ends {@code CANCELLED}, neither retried nor dead-lettered,
         * unless it completes before it is stopped.
         */
        STOP_REQUESTED,
        /** The attempt was cancelled already; nothing changed. */
        ALREADY_CANCELLED,
        /** The attempt had ended in another state; nothing changed. */
        ALREADY_ENDED,
        /** No such attempt. */
        NOT_FOUND
    }

    /**
     * Tells whether the attempt is, or is going to be, {@code CANCELLED} by this request or an earlier one.
     * @return {@code false} if it ended otherwise or does not exist
     */
    public boolean accepted() {
        return this.result == Result.CANCELLED
                || this.result == Result.STOP_REQUESTED
                || this.result == Result.ALREADY_CANCELLED;
    }
}
