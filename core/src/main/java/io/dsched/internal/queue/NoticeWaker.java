package io.dsched.internal.queue;

import io.dsched.internal.execution.JobTargets;

/** Wakes this node's queue for the notices that name jobs it runs, by the time they say. */
final class NoticeWaker {

    private final JobTargets targets;

    private final ExecutionQueue queue;

    NoticeWaker(JobTargets targets, ExecutionQueue queue) {
        this.targets = targets;
        this.queue = queue;
    }

    /** Takes a notice's payload, as {@link NoticePayload#payload} wrote it. */
    void heard(String payload) {
        NoticePayload.Heard notice = NoticePayload.heard(payload);
        if (this.targets.names().contains(notice.jobName())) {
            notice.dueBy().ifPresentOrElse(this.queue::wakeUp, this.queue::wakeUp);
        }
    }

    /** Wakes the queue for whatever fell due while this node heard no notices. */
    void wakeUp() {
        this.queue.wakeUp();
    }
}
