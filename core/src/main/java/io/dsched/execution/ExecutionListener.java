package io.dsched.execution;

import java.time.Duration;
import java.time.Instant;

/**
 * Hears what becomes of the attempts on this node, for metrics, notifications and the like.
 * Declare a bean of this type and dsched calls it.
 *
 * <p>dsched calls a listener on the thread that runs the attempt, after the outcome has been
 * recorded (a success: handed to the writer that records it). A listener must be quick, and must
 * not fail: an exception it throws is logged and changes nothing about the attempt.
 */
public interface ExecutionListener {

    /**
     * An attempt starts to run on this node.
     * @param attempt the claimed attempt
     * @param startedAt when its method starts
     */
    default void started(ExecutionRecord attempt, Instant startedAt) {}

    /**
     * An attempt ran on this node.
     * @param attempt the attempt
     * @param outcome what became of it: {@link Outcome#SUCCEEDED}, {@link Outcome#RETRY_SCHEDULED},
     *     {@link Outcome#DEAD_LETTERED} or {@link Outcome#LOST}
     * @param duration how long its method ran
     * @param failure what it failed with, or {@code null} after a success
     */
    default void finished(ExecutionRecord attempt, Outcome outcome, Duration duration, Throwable failure) {}

    /**
     * A fire or an attempt was not run on this node.
     * @param jobName the job or handler
     * @param reason why
     */
    default void skipped(String jobName, SkipReason reason) {}

    /** Why a fire or an attempt was not run on this node. */
    enum SkipReason {
        /** The fire had been claimed already, by another node or an earlier delivery. */
        ALREADY_CLAIMED,
        /** Another run of the job held its guard; the attempt waits and is tried again. */
        GUARD_HELD,
        /** This node does not declare the job: a fire waits for a node that does. */
        NOT_DECLARED,
        /**
         * The job runs in a node group this node does not serve: a fire waits for a node that
         * serves it.
         */
        OTHER_GROUP,
        /**
         * Every worker of the job's group on this node was busy: the fire waits for a free one on
         * any node that serves the group.
         */
        NO_FREE_WORKER
    }
}
