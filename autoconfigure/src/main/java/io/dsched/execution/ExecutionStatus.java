package io.dsched.execution;

import java.util.EnumSet;
import java.util.Set;

/**
 * The states of one attempt at one fire, and the only transitions between them that may be
 * written.
 */
public enum ExecutionStatus {

    /** Known and due, not yet claimed by a node. */
    SCHEDULED,
    /** Claimed by a node, which runs it. */
    RUNNING,
    /** Ran to completion. */
    SUCCEEDED,
    /** Threw an exception. */
    FAILED,
    /** Failed, and another attempt is scheduled. */
    RETRY_SCHEDULED,
    /** Failed for good; kept for an operator to replay or discard. */
    DEAD_LETTERED,
    /** Not run, for the reason recorded with it. */
    SKIPPED,
    /** Ran longer than its timeout and was interrupted. */
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
            case SCHEDULED -> EnumSet.of(RUNNING, SKIPPED, CANCELLED);
            case RUNNING -> EnumSet.of(SUCCEEDED, FAILED, SKIPPED, TIMED_OUT, CANCELLED);
            case FAILED, TIMED_OUT -> EnumSet.of(RETRY_SCHEDULED, DEAD_LETTERED);
            case RETRY_SCHEDULED -> EnumSet.of(RUNNING, CANCELLED);
            case SUCCEEDED, DEAD_LETTERED, SKIPPED, CANCELLED -> EnumSet.noneOf(ExecutionStatus.class);
        };
    }
}
