package io.dsched.execution;

import java.time.Duration;

/**
 * Recorded for a run that took longer than its job's timeout and was interrupted.
 */
public class JobTimeoutException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     * @param jobName the job
     * @param timeout its timeout
     */
    public JobTimeoutException(String jobName, Duration timeout) {
        super("Job '" + jobName + "' ran longer than its timeout of " + timeout + " and was interrupted");
    }
}
