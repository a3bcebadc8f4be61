package io.dsched.internal.execution;

import io.dsched.execution.ExecutionListener;
import java.time.Duration;
import java.util.Objects;

/**
 * Decides whether a claimed attempt may run now: the one place where the pipeline holds an
 * attempt back. The guard that keeps runs of a job from overlapping is such a policy; limits of
 * concurrency or rate plug in beside it. An attempt held back goes back to waiting, claimed by
 * no node, and is claimed again after the policy's wait; it is never skipped.
 *
 * <p>Internal for now: the guard is the one policy; the interface opens to applications with the
 * policies of flow control, which bring their own reasons to report.
 */
@FunctionalInterface
interface AdmissionPolicy {

    /**
     * Decides whether an attempt may run now.
     * @param attempt the claimed attempt, with the job it runs
     * @return an admission, whose permit the pipeline releases when the attempt ends, or a hold
     * @throws RuntimeException if the policy cannot decide (its store is unreachable): the attempt
     *     stays claimed and is run again once the node's sweep of stale attempts finds it
     */
    Ticket admit(Attempt attempt);

    /** What an admitted attempt holds until it ends. */
    @FunctionalInterface
    interface Permit {

        /** Holds nothing. */
        Permit NONE = () -> {};

        /** Gives back what the attempt held; called once, when it has ended. */
        void release();
    }

    /**
     * A policy's answer.
     *
     * @param permit what the admitted attempt holds, or {@code null} if it is held back
     * @param delay how long a held attempt waits before it is claimed again
     * @param reason why it is held back, recorded with it
     * @param reported how listeners and metrics hear of the hold
     */
    record Ticket(Permit permit, Duration delay, String reason, ExecutionListener.SkipReason reported) {

        /**
         * Admits an attempt.
         * @param permit what it holds until it ends
         * @return the ticket
         */
        public static Ticket admitted(Permit permit) {
            return new Ticket(Objects.requireNonNull(permit, "permit"), null, null, null);
        }

        /**
         * Holds an attempt back.
         * @param delay how long it waits before it is claimed again
         * @param reason why, recorded with it
         * @param reported how listeners and metrics hear of the hold
         * @return the ticket
         */
        public static Ticket held(Duration delay, String reason, ExecutionListener.SkipReason reported) {
            return new Ticket(
                    null,
                    Objects.requireNonNull(delay, "delay"),
                    Objects.requireNonNull(reason, "reason"),
                    Objects.requireNonNull(reported, "reported"));
        }

        /**
         * Tells whether the attempt may run now.
         * @return {@code true} if it is admitted
         */
        public boolean isAdmitted() {
            return this.permit != null;
        }
    }
}
