package io.dsched.internal.jobs;

import io.dsched.definition.Schedule;
import io.dsched.execution.Cancellation;
import io.dsched.internal.definition.JobRegistry;
import io.dsched.internal.handler.HandlerRegistry;
import io.dsched.internal.queue.DueNotice;
import io.dsched.internal.store.ExecutionStore;
import io.dsched.internal.store.UniqueKeys;
import io.dsched.jobs.JobScheduler;
import io.dsched.jobs.OneOff;
import io.dsched.jobs.RecurringJob;
import io.dsched.jobs.RuntimeJobRecord;
import io.dsched.jobs.ScheduledJob;
import java.time.Clock;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.quartz.Scheduler;
import tools.jackson.databind.json.JsonMapper;

/**
 * The {@link JobScheduler} of a node: each of its calls is handed to the part that does that
 * work (submissions, manual runs, control of scheduled jobs, run-time jobs, cancels).
 */
public class DefaultJobScheduler implements JobScheduler {

    private final RuntimeJobs runtimeJobs;

    private final Submissions submissions;

    private final ManualRuns manualRuns;

    private final ScheduledJobControl control;

    private final RuntimeJobChanges runtimeChanges;

    private final Cancels cancels;

    private final String nodeId;

    /**
     * Creates the API.
     * @param handlers the handlers this node declares
     * @param jobs the scheduled jobs this node declares
     * @param store the execution history
     * @param scheduler this node's Quartz scheduler
     * @param json writes payloads
     * @param nodeId this node
     * @param clock the clock
     * @param dueNotice announces attempts that fell due now
     * @param runtimeJobs the recurring jobs defined at run time
     * @param observer wraps the storing of submitted jobs, for tracing
     * @param uniqueKeys the keys held for a window of their own
     */
    public DefaultJobScheduler(
            HandlerRegistry handlers,
            JobRegistry jobs,
            ExecutionStore store,
            Supplier<Scheduler> scheduler,
            Supplier<JsonMapper> json,
            String nodeId,
            Clock clock,
            DueNotice dueNotice,
            RuntimeJobs runtimeJobs,
            SubmissionObserver observer,
            UniqueKeys uniqueKeys) {
        QuartzCalls quartz = new QuartzCalls(scheduler);
        Payloads payloads = new Payloads(handlers, json);
        this.runtimeJobs = runtimeJobs;
        this.submissions = new Submissions(payloads, store, observer, uniqueKeys, nodeId, clock, dueNotice);
        this.manualRuns = new ManualRuns(jobs, runtimeJobs, payloads, this.submissions);
        this.runtimeChanges = new RuntimeJobChanges(jobs, runtimeJobs, payloads, quartz, clock);
        this.control = new ScheduledJobControl(jobs, runtimeJobs, this.runtimeChanges, quartz, clock);
        this.cancels = new Cancels(store, clock);
        this.nodeId = nodeId;
    }

    @Override
    public ScheduledJob submit(OneOff request) {
        return this.submissions.submit(request);
    }

    @Override
    public List<ScheduledJob> submitAll(List<OneOff> requests) {
        return this.submissions.submitAll(requests);
    }

    @Override
    public void pause(String job) {
        this.control.pause(job);
    }

    @Override
    public void resume(String job) {
        this.control.resume(job);
    }

    @Override
    public boolean isPaused(String job) {
        return this.control.isPaused(job);
    }

    @Override
    public ScheduledJob trigger(String job, Object params) {
        return this.manualRuns.trigger(job, params);
    }

    @Override
    public Cancellation cancel(long executionId) {
        return cancel(executionId, "the application on node " + this.nodeId);
    }

    @Override
    public Cancellation cancel(long executionId, String requestedBy) {
        return this.cancels.cancel(executionId, requestedBy);
    }

    @Override
    public Cancellation cancelByKey(String idempotencyKey, String requestedBy) {
        return this.cancels.cancelByKey(idempotencyKey, requestedBy);
    }

    @Override
    public Cancellation cancelOneOff(String handler, String key) {
        return cancelByKey(handler + ":" + key, "the application on node " + this.nodeId);
    }

    @Override
    public void reschedule(String job, Schedule schedule) {
        this.control.reschedule(job, schedule);
    }

    @Override
    public String scheduleOf(String job) {
        return this.control.scheduleOf(job);
    }

    @Override
    public void create(RecurringJob job) {
        this.runtimeChanges.create(job);
    }

    @Override
    public void update(String job, Schedule schedule, Object params) {
        this.runtimeChanges.update(job, schedule, params);
    }

    @Override
    public void delete(String job) {
        this.runtimeChanges.delete(job);
    }

    @Override
    public Optional<RuntimeJobRecord> recurring(String job) {
        return this.runtimeJobs.record(job);
    }
}
