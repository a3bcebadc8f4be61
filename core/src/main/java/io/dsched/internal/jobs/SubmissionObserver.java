package io.dsched.internal.jobs;

import io.dsched.jobs.JobScheduler;
import java.util.function.Function;

/**
 * Wraps the storing of jobs submitted through the {@link JobScheduler} (one-off jobs and runs
 * triggered by hand), on the caller's thread: the hook dsched's tracing stands on to link a job's
 * attempts to the trace that submitted it.
 */
public interface SubmissionObserver {

    /** Observes nothing and stores no trace context. */
    SubmissionObserver NONE = new SubmissionObserver() {

        @Override
        public <T> T observe(String job, int count, Function<String, T> store) {
            return store.apply(null);
        }
    };

    /**
     * Stores submitted jobs.
     * @param job the handler or job submitted, or {@code several} for a batch of several
     * @param count how many jobs are submitted
     * @param store stores the jobs, given the trace context to store with them (a carrier of
     *     propagation fields, encoded), or {@code null} to store none
     * @param <T> what storing them returns
     * @return what {@code store} returned
     */
    <T> T observe(String job, int count, Function<String, T> store);
}
