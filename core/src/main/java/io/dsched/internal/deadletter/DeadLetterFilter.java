package io.dsched.internal.deadletter;

import io.dsched.internal.store.DeadLetterStatus;
import java.time.Instant;

/**
 * Which dead letters to list; a {@code null} field does not filter.
 *
 * @param jobName only letters of this job or handler
 * @param status only letters in this state
 * @param failedFrom only letters whose last failure is at or after this time
 * @param failedTo only letters whose last failure is before this time
 */
public record DeadLetterFilter(String jobName, DeadLetterStatus status, Instant failedFrom, Instant failedTo) {

    /** Every open letter. */
    public static final DeadLetterFilter OPEN = new DeadLetterFilter(null, DeadLetterStatus.OPEN, null, null);

    /** Every letter. */
    public static final DeadLetterFilter ALL = new DeadLetterFilter(null, null, null, null);

    /**
     * Returns this filter narrowed to one job.
     * @param jobName the job or handler
     * @return the narrowed filter
     */
    public DeadLetterFilter forJob(String jobName) {
        return new DeadLetterFilter(jobName, this.status, this.failedFrom, this.failedTo);
    }
}
