package io.dsched.jobs;

import io.dsched.definition.Schedule;
import io.dsched.execution.Cancellation;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * Schedules one-off jobs with a payload, and pauses, resumes, triggers and reschedules
 * scheduled jobs at run time. Everything it does is stored in the database: it survives the
 * restart of every node and takes effect on every node.
 *
 * <p>A schedule changed at run time stays in force across restarts until a deployment changes
 * the job's declared schedule in the code: then the code wins.
 *
 * <p>The starter declares one as a bean; inject it.
 */
public interface JobScheduler {

    /** Largest payload of a one-off job, in characters of JSON. */
    int MAX_PAYLOAD = 1_000_000;

    /** Longest fixed rate a schedule may have; a longer period is a cron's. */
    Duration MAX_RATE = Duration.ofDays(366);

    /**
     * Schedules a one-off job. With an idempotency key, a second submission returns the job of
     * the first and schedules nothing.
     * @param request the job
     * @return the scheduled job
     * @throws UnknownJobException if no {@code @JobHandler} has the request's name
     * @throws IllegalArgumentException if the payload cannot be written as JSON, or not read as
     *     the handler's payload type, or its limit key ({@code partitionBy}) is longer than 200
     *     characters; nothing is stored then
     */
    ScheduledJob submit(OneOff request);

    /**
     * Schedules several one-off jobs, as by {@link #submit(OneOff)} for each but faster: the jobs
     * without an idempotency key are written in batches, each batch in one transaction. Every
     * request is checked before anything is stored.
     * @param requests the jobs
     * @return the scheduled jobs, in order
     * @throws UnknownJobException if no {@code @JobHandler} has a request's name
     * @throws IllegalArgumentException if a payload cannot be written as JSON, or not read as its
     *     handler's payload type, or a limit key is longer than 200 characters; nothing is stored
     *     then
     */
    List<ScheduledJob> submitAll(List<OneOff> requests);

    /**
     * Stops a scheduled job from firing, on every node, until it is resumed. Attempts already
     * waiting (retries) still run.
     * @param job the job's name
     * @throws UnknownJobException if there is no such job
     */
    void pause(String job);

    /**
     * Lets a paused job fire again; a fire it missed while paused follows its misfire policy.
     * @param job the job's name
     * @throws UnknownJobException if there is no such job
     */
    void resume(String job);

    /**
     * Whether a job is paused.
     * @param job the job's name
     * @return {@code true} if paused
     * @throws UnknownJobException if there is no such job
     */
    boolean isPaused(String job);

    /**
     * Runs a scheduled job once now, outside its schedule, as an attempt of its own (origin
     * {@code MANUAL}); it does not overlap a running fire of the job.
     * @param job the job's name
     * @return the scheduled run
     * @throws UnknownJobException if this node does not declare the job
     */
    default ScheduledJob trigger(String job) {
        return trigger(job, null);
    }

    /**
     * Runs a scheduled job once now, as {@link #trigger(String)} does, with parameters of its own
     * for this run instead of the job's.
     * @param job the job's name
     * @param params the parameters, or {@code null} for the job's own
     * @return the scheduled run
     * @throws UnknownJobException if this node does not declare the job
     * @throws IllegalArgumentException if the job is declared in code (it takes no parameters) or
     *     the parameters cannot be read as its handler's payload
     */
    ScheduledJob trigger(String job, Object params);

    /**
     * Cancels an attempt, on whichever node it is: one that waits to run (a one-off job, a retry,
     * a run triggered by hand, a replay) is {@code CANCELLED} at once and never runs; one that runs
     * is asked to stop: its {@link io.dsched.execution.JobContext#isCancelled()} turns true within
     * {@code dsched.execution.cancel-poll-interval}, its thread is interrupted if it has not ended
     * {@code dsched.execution.cancel-grace} later, and it ends {@code CANCELLED}, neither retried nor
     * dead-lettered (a job that ignores both ends at its timeout, if it has one). A run that completes
     * before it is stopped keeps its outcome. Asking again changes nothing.
     * @param executionId the attempt's id
     * @return what the request did; {@link Cancellation.Result#ALREADY_ENDED} for an attempt that
     *     ended otherwise, {@link Cancellation.Result#NOT_FOUND} for an unknown id
     */
    Cancellation cancel(long executionId);

    /**
     * Cancels an attempt, as {@link #cancel(long)} does, naming who asks.
     * @param executionId the attempt's id
     * @param requestedBy who asks, recorded in the attempt's reason ("cancelled by ...")
     * @return what the request did
     */
    Cancellation cancel(long executionId, String requestedBy);

    /**
     * Cancels the current attempt of a fire, as {@link #cancel(long)} does: the newest attempt
     * under the fire's key.
     * @param idempotencyKey the fire's key, as {@link ScheduledJob#idempotencyKey()} and {@link
     *     io.dsched.execution.JobContext#idempotencyKey()} give it
     * @param requestedBy who asks
     * @return what the request did; {@link Cancellation.Result#NOT_FOUND} if the fire has no attempt
     */
    Cancellation cancelByKey(String idempotencyKey, String requestedBy);

    /**
     * Cancels a one-off job submitted with the caller's own key ({@link OneOff#withKey(String)}),
     * as {@link #cancel(long)} does.
     * @param handler the job's handler
     * @param key the key it was submitted with
     * @return what the request did
     */
    Cancellation cancelOneOff(String handler, String key);

    /**
     * Changes a scheduled job's schedule at run time, on every node. The change stays in force
     * across restarts until a deployment changes the job's declared schedule.
     * @param job the job's name
     * @param schedule the new schedule
     * @throws UnknownJobException if this node does not declare the job
     * @throws IllegalArgumentException if the schedule is invalid
     */
    void reschedule(String job, Schedule schedule);

    /**
     * Returns the schedule a job fires on now: the declared one, or one set at run time.
     * @param job the job's name
     * @return a description of the schedule
     * @throws UnknownJobException if there is no such job
     */
    String scheduleOf(String job);

    /**
     * Creates a recurring job at run time, on every node; it survives restarts until deleted.
     * @param job the job
     * @throws IllegalArgumentException if the name is taken, the handler unknown, the schedule
     *     invalid or the parameters cannot be written as JSON for the handler; nothing is stored
     */
    void create(RecurringJob job);

    /**
     * Changes a recurring job defined at run time.
     * @param job the job's name
     * @param schedule its new schedule, or {@code null} to keep it
     * @param params its new parameters, or {@code null} to keep them
     * @throws UnknownJobException if no job of that name was defined at run time
     */
    void update(String job, Schedule schedule, Object params);

    /**
     * Deletes a recurring job defined at run time, on every node: its trigger, then the job and
     * its attempts that wait to run, such as a retry, in one transaction (they are cancelled). A
     * run in progress finishes; if it fails, it is not retried but dead-lettered.
     * @param job the job's name
     * @throws UnknownJobException if no job of that name was defined at run time
     * @throws IllegalArgumentException for a job declared in code: remove its annotation instead
     */
    void delete(String job);

    /**
     * Returns a recurring job defined at run time.
     * @param job the job's name
     * @return the job, or empty
     */
    Optional<RuntimeJobRecord> recurring(String job);
}
