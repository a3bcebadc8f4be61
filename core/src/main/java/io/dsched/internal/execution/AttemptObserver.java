package io.dsched.internal.execution;

import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.Outcome;

/**
 * Wraps each attempt this node runs, from just before its job's method starts to just after its
 * outcome is recorded, on the thread that runs it: the hook dsched's tracing stands on. An
 * observer catches its own exceptions; it must never fail an attempt.
 */
public interface AttemptObserver {

    /** Observes nothing. */
    AttemptObserver NONE = (attempt) -> Observed.NONE;

    /**
     * An attempt is about to run its job's method on this thread.
     * @param attempt the claimed attempt
     * @return the attempt under observation, current on this thread until it is stopped
     */
    Observed start(ExecutionRecord attempt);

    /** One attempt under observation. */
    interface Observed {

        /** Observes nothing. */
        Observed NONE = new Observed() {};

        /**
         * The job's method failed or timed out.
         * @param failure what it failed with
         */
        default void failed(Throwable failure) {}

        /**
         * The attempt is over; called once, on the thread that started it.
         * @param outcome what became of it, or {@code null} if its outcome could not be recorded
         */
        default void stop(Outcome outcome) {}
    }
}
