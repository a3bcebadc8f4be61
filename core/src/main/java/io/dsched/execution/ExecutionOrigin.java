package io.dsched.execution;

/**
 * Why an attempt exists.
 */
public enum ExecutionOrigin {

    /** A fire of the job's schedule. */
    SCHEDULE,
    /** A retry after a failed attempt. */
    RETRY,
    /** A re-run of an attempt whose node died while running it. */
    RECOVERY,
    /** A replay of a dead letter by an operator. */
    REPLAY,
    /** A run triggered by hand, outside the schedule. */
    MANUAL,
    /** A one-off job submitted with a payload. */
    ONE_OFF
}
