package io.dsched.execution;

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
