package io.dsched.definition;

/**
 * What becomes of fires that no node could start in time, such as while the whole cluster was
 * down, once a node can: a fire counts as missed when it is later than
 * {@code dsched.cluster.misfire-threshold}.
 */
public enum MisfirePolicy {

    /** Run the missed fires once, as soon as a node can, then follow the schedule (the default). */
    RUN_ONCE,

    /** Skip the missed fires and wait for the next scheduled time. */
    SKIP
}
