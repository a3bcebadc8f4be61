package io.dsched.internal.management;

import io.dsched.definition.Schedule;
import io.dsched.execution.Cancellation;
import io.dsched.execution.ExecutionStatus;
import io.dsched.jobs.JobScheduler;
import io.dsched.jobs.RuntimeJobRecord;
import io.dsched.jobs.ScheduledJob;
import io.dsched.jobs.UnknownJobException;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What the management endpoint changes of jobs and their attempts, with the checks that keep bad
 * input out. Roles and the audit log are the endpoint's concern; this class trusts its caller to
 * have checked who asks.
 */
public class JobCommands {

    private final ManagedJobs jobs;

    private final JobScheduler scheduler;

    private final ShardCommands shards;

    /**
     * Creates the commands.
     * @param jobs the jobs management knows
     * @param scheduler the job API
     * @param shards what it changes of sharded jobs' shards
     */
    public JobCommands(ManagedJobs jobs, JobScheduler scheduler, ShardCommands shards) {
        this.jobs = jobs;
        this.scheduler = scheduler;
        this.shards = shards;
    }

    /**
     * Returns what the endpoint changes of sharded jobs' shards.
     * @return the commands
     */
    public ShardCommands shards() {
        return this.shards;
    }

    /**
     * Pauses a job on every node.
     * @param job the job
     * @return what changed
     * @throws ManagementException (409) if it is paused already
     */
    public Change pause(String job) {
        this.jobs.existing(job);
        if (this.scheduler.isPaused(job)) {
            throw ManagementException.conflict("'" + job + "' is paused already");
        }
        this.scheduler.pause(job);
        return new Change(job, Map.of("paused", false), Map.of("paused", true));
    }

    /**
     * Resumes a paused job on every node.
     * @param job the job
     * @return what changed
     * @throws ManagementException (409) if it is not paused
     */
    public Change resume(String job) {
        this.jobs.existing(job);
        if (!this.scheduler.isPaused(job)) {
            throw ManagementException.conflict("'" + job + "' is not paused");
        }
        this.scheduler.resume(job);
        return new Change(job, Map.of("paused", true), Map.of("paused", false));
    }

    /**
     * Runs a job once now, outside its schedule.
     * @param job the job
     * @param params parameters for this run (jobs defined at run time only), or {@code null}
     * @return what changed: the new attempt
     */
    public Change trigger(String job, Object params) {
        this.jobs.existing(job);
        if (params != null && this.jobs.runtime(job).isEmpty()) {
            throw ManagementException.conflict(
                    "'" + job + "' is declared in code and takes no parameters; only jobs defined at run time do");
        }
        ScheduledJob run = badInputAs("params", () -> this.scheduler.trigger(job, params));
        Map<String, Object> after = new LinkedHashMap<>();
        after.put("executionId", run.executionId());
        after.put("idempotencyKey", run.idempotencyKey());
        return new Change(job, null, after);
    }

    /**
     * Cancels an attempt: one that waits is cancelled at once, one that runs is asked to stop.
     * @param id the execution id
     * @param actor who asks, named in the attempt's reason
     * @return what changed
     * @throws ManagementException (404) for an unknown attempt, (409) for one that has ended
     *     otherwise than cancelled
     */
    public Change cancel(long id, String actor) {
        Cancellation done = this.scheduler.cancel(id, actor);
        String target = String.valueOf(id);
        Map<String, Object> before = (done.before() != null) ? Map.of("status", done.before()) : null;
        return switch (done.result()) {
            case NOT_FOUND -> throw ManagementException.notFound("No execution with id " + id);
            case ALREADY_ENDED ->
                throw ManagementException.conflict(
                        "Execution " + id + " has ended already, " + done.before() + "; there is nothing to cancel");
            case CANCELLED, ALREADY_CANCELLED ->
                new Change(target, before, Map.of("status", ExecutionStatus.CANCELLED));
            case STOP_REQUESTED -> {
                Map<String, Object> after = new LinkedHashMap<>();
                after.put("status", ExecutionStatus.RUNNING);
                after.put("stopRequested", true);
                yield new Change(target, before, after);
            }
        };
    }

    /**
     * Changes a job's schedule on every node.
     * @param job the job
     * @param input the new schedule
     * @return what changed
     */
    public Change reschedule(String job, ScheduleInput input) {
        this.jobs.existing(job);
        Schedule schedule = input.toSchedule();
        if (this.jobs
                        .declaredSchedule(job)
                        .filter((declared) -> declared instanceof Schedule.FixedDelay)
                        .isPresent()
                && !(schedule instanceof Schedule.Cron)) {
            throw ManagementException.badInput("fixedRate", "'" + job + "' runs on a fixed delay; give it a cron");
        }
        String before = this.scheduler.scheduleOf(job);
        badInputAs("schedule", () -> {
            this.scheduler.reschedule(job, schedule);
            return null;
        });
        return new Change(job, Map.of("schedule", before), Map.of("schedule", this.scheduler.scheduleOf(job)));
    }

    /**
     * Changes the parameters of a job defined at run time, on every node.
     * @param job the job
     * @param params the new parameters
     * @return what changed
     */
    public Change params(String job, Object params) {
        this.jobs.existing(job);
        RuntimeJobRecord current = this.jobs
                .runtime(job)
                .orElseThrow(() -> ManagementException.conflict(
                        "'" + job + "' is declared in code and has no parameters; only jobs defined at run time do"));
        if (params == null) {
            throw ManagementException.badInput("params", "Give the new parameters");
        }
        // values read masked and sent back unchanged keep what they were
        Object kept = badInputAs("params", () -> KeptSecrets.restore(params, current.params()));
        badInputAs("params", () -> {
            this.scheduler.update(job, null, kept);
            return null;
        });
        String after = this.jobs.runtime(job).map(RuntimeJobRecord::params).orElse("");
        return new Change(job, Map.of("params", String.valueOf(current.params())), Map.of("params", after));
    }

    private static <T> T badInputAs(String field, Supplier<T> change) {
        try {
            return change.get();
        } catch (UnknownJobException ex) {
            throw ManagementException.notFound(ex.getMessage());
        } catch (IllegalArgumentException ex) {
            throw ManagementException.badInput(field, ex.getMessage());
        }
    }
}
