package io.dsched.internal.jobs;

import io.dsched.internal.definition.JobRegistry;
import io.dsched.jobs.RuntimeJobRecord;
import io.dsched.jobs.ScheduledJob;
import io.dsched.jobs.UnknownJobException;
import java.util.Optional;

/** Runs of a scheduled job triggered by hand, with the job's parameters or with their own. */
final class ManualRuns {

    private final JobRegistry jobs;

    private final RuntimeJobs runtimeJobs;

    private final Payloads payloads;

    private final Submissions submissions;

    ManualRuns(JobRegistry jobs, RuntimeJobs runtimeJobs, Payloads payloads, Submissions submissions) {
        this.jobs = jobs;
        this.runtimeJobs = runtimeJobs;
        this.payloads = payloads;
        this.submissions = submissions;
    }

    ScheduledJob trigger(String job, Object params) {
        Optional<RuntimeJobRecord> runtime = this.runtimeJobs.record(job);
        if (this.jobs.definition(job).isEmpty() && runtime.isEmpty()) {
            throw new UnknownJobException("No scheduled job named '" + job + "' on this node");
        }
        if (params != null && runtime.isEmpty()) {
            throw new IllegalArgumentException("'" + job + "' is declared in code and takes no parameters");
        }
        String payload = (params != null)
                ? this.payloads.write(this.payloads.handler(runtime.get().handler()), params)
                : null;
        return this.submissions.manual(job, payload);
    }
}
