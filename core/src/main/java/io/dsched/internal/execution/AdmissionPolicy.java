package io.dsched.internal.execution;

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
}
