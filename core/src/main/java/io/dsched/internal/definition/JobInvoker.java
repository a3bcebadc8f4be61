package io.dsched.internal.definition;

import io.dsched.execution.JobContext;

/**
 * Runs the body of a job, typically by calling an annotated bean method.
 */
@FunctionalInterface
public interface JobInvoker {

    /**
     * Runs the job once.
     * @param context the fire being run
     * @throws Exception whatever the job throws; it is recorded as the run's failure
     */
    void invoke(JobContext context) throws Exception;
}
