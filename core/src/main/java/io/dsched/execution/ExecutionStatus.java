package io.dsched.execution;

import java.util.EnumSet;
import java.util.Set;

/**
 * The states of one attempt at one fire, and the only transitions between them that may be
 * written.
 */
public enum ExecutionStatus {

    /** A first attempt (a one-off job or a manual trigger), waiting until it falls due. */
    SCHEDULED,
    /** Claimed by a node, which runs it. */
    RUNNING,
    /** Ran to completion. */
    SUCCEEDED,
    /** Threw an exception; the next attempt is in a row of its own. */
    FAILED,
    /** A later attempt (a retry, a recovery or a replay), waiting until it falls due. */
    RETRY_SCHEDULED,
    /** Failed with no retry left; the fire is in {@code dsched_dead_letter}. */
    DEAD_LETTERED,
    /** Not run, for the reason recorded with it. */
    SKIPPED,
    /** Ran longer than its timeout and was interrupted; retried like a failure. */
    TIMED_OUT,
    /** Stopped by an operator. */
    CANCELLED;

    /**
     * Whether an attempt in this state may move to the given one.
     * @param next the state to move to
     * @return {@code true} if the transition is legal
     */
    public boolean canMoveTo(ExecutionStatus next) {
        return successors().contains(next);
    }

    /**
     * Checks a transition.
     * @param next the state to move to
     * @throws IllegalStateException if the transition is not legal
     */
    public void checkMoveTo(ExecutionStatus next) {
        if (!canMoveTo(next)) {
            throw new IllegalStateException("Illegal execution state transition " + this + " -> " + next);
        }
    }

    /**
     * Whether no further transition leaves this state.
     * @return {@code true} for a final state
     */
    public boolean isTerminal() {
        return successors().isEmpty();
    }

    private Set<ExecutionStatus> successors() {
        return switch (this) {
            case SCHEDULED, RETRY_SCHEDULED -> EnumSet.of(RUNNING, CANCELLED);
            // a claimed attempt whose job's guard is held goes back to wait (SCHEDULED or RETRY_SCHEDULED)
            case RUNNING ->
                EnumSet.of(SUCCEEDED, FAILED, TIMED_OUT, DEAD_LETTERED, SKIPPED, CANCELLED, SCHEDULED, RETRY_SCHEDULED);
            case FAILED, TIMED_OUT -> EnumSet.of(DEAD_LETTERED);
            case SUCCEEDED, DEAD_LETTERED, SKIPPED, CANCELLED -> EnumSet.noneOf(ExecutionStatus.class);
        };
    }
}
