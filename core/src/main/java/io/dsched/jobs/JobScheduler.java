package io.dsched.jobs;

import io.dsched.definition.JobDefinition;
import io.dsched.definition.JobRegistry;
import io.dsched.definition.Schedule;
import io.dsched.engine.JobSynchronizer;
import io.dsched.engine.Triggers;
import io.dsched.handler.HandlerDefinition;
import io.dsched.handler.HandlerRegistry;
import io.dsched.store.Cancellation;
import io.dsched.store.ExecutionOrigin;
import io.dsched.store.ExecutionRecord;
import io.dsched.store.ExecutionStore;
import io.dsched.store.UniqueKeys;
import java.sql.SQLException;
import java.sql.SQLTransactionRollbackException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Supplier;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.Trigger;
import org.quartz.TriggerKey;
import tools.jackson.core.JacksonException;
import tools.jackson.databind.json.JsonMapper;

/**
 * Schedules one-off jobs with a payload, and pauses, resumes, triggers and reschedules
 * scheduled jobs at run time. Everything it does is stored in the database: it survives the
 * restart of every node and takes effect on every node.
 *
 * <p>A schedule changed at run time stays in force across restarts until a deployment changes
 * the job's declared schedule in the code: then the code wins.
 */
public class JobScheduler {

    /** Largest payload of a one-off job, in characters of JSON. */
    public static final int MAX_PAYLOAD = 1_000_000;

    /** Longest fixed rate a schedule may have; a longer period is a cron's. */
    public static final Duration MAX_RATE = Duration.ofDays(366);

    private static final int DEADLOCK_ATTEMPTS = 3;

    private final HandlerRegistry handlers;

    private final JobRegistry jobs;

    private final ExecutionStore store;

    private final Supplier<Scheduler> scheduler;

    private final Supplier<JsonMapper> json;

    private final String nodeId;

    private final Clock clock;

    private final Runnable wakeQueue;

    private final RuntimeJobs runtimeJobs;

    private final SubmissionObserver observer;

    private final UniqueKeys uniqueKeys;

    /**
     * Creates the API.
     * @param handlers the handlers this node declares
     * @param jobs the scheduled jobs this node declares
     * @param store the execution history
     * @param scheduler this node's Quartz scheduler
     * @param json writes payloads
     * @param nodeId this node
     * @param clock the clock
     * @param wakeQueue makes this node look for due attempts at once
     * @param runtimeJobs the recurring jobs defined at run time
     * @param observer wraps the storing of submitted jobs, for tracing
     * @param uniqueKeys the keys held for a window of their own
     */
    public JobScheduler(
            HandlerRegistry handlers,
            JobRegistry jobs,
            ExecutionStore store,
            Supplier<Scheduler> scheduler,
            Supplier<JsonMapper> json,
            String nodeId,
            Clock clock,
            Runnable wakeQueue,
            RuntimeJobs runtimeJobs,
            SubmissionObserver observer,
            UniqueKeys uniqueKeys) {
        this.handlers = handlers;
        this.jobs = jobs;
        this.store = store;
        this.scheduler = scheduler;
        this.json = json;
        this.nodeId = nodeId;
        this.clock = clock;
        this.wakeQueue = wakeQueue;
        this.runtimeJobs = runtimeJobs;
        this.observer = observer;
        this.uniqueKeys = uniqueKeys;
    }

    /**
     * Schedules a one-off job. With an idempotency key, a second submission returns the job of
     * the first and schedules nothing.
     * @param request the job
     * @return the scheduled job
     * @throws UnknownJobException if no {@code @JobHandler} has the request's name
     * @throws IllegalArgumentException if the payload cannot be written as JSON, or not read as
     *     the handler's payload type; nothing is stored then
     */
    public ScheduledJob submit(OneOff request) {
        HandlerDefinition handler = handler(request.handler());
        String payload = payload(handler, request.payload());
        return this.observer.observe(
                handler.name(), 1, (traceCarrier) -> submit(handler, payload, request, traceCarrier));
    }

    private ScheduledJob submit(HandlerDefinition handler, String payload, OneOff request, String traceCarrier) {
        Instant now = this.clock.instant();
        Instant dueAt = request.dueAt(now);
        String key = handler.name() + ":" + ((request.key() != null) ? request.key() : UUID.randomUUID());
        if (request.uniqueFor() != null) {
            Optional<UniqueKeys.Held> held = this.uniqueKeys.held(key, now);
            if (held.isPresent()) {
                return new ScheduledJob(
                        held.get().executionId(),
                        handler.name(),
                        key,
                        held.get().dueAt(),
                        false);
            }
        }
        ExecutionRecord first = ExecutionRecord.waiting(
                handler.name(), dueAt, 1, key, ExecutionOrigin.ONE_OFF, this.nodeId, now, dueAt, payload, null);
        Optional<ExecutionRecord> saved = (request.uniqueFor() != null)
                ? this.uniqueKeys.claimHeld(
                        () -> this.store.inserts().claim(first, traceCarrier),
                        key,
                        dueAt,
                        now.plus(request.uniqueFor()))
                : this.store.inserts().claim(first, traceCarrier);
        if (saved.isPresent()) {
            if (!dueAt.isAfter(now)) {
                this.wakeQueue.run();
            }
            return new ScheduledJob(saved.get().id(), handler.name(), key, dueAt, true);
        }
        ExecutionRecord existing =
                this.store.repository().findByIdempotencyKey(key).get(0);
        return new ScheduledJob(existing.id(), handler.name(), key, existing.scheduledAt(), false);
    }

    /**
     * Schedules several one-off jobs, as by {@link #submit(OneOff)} for each but faster: the jobs
     * without an idempotency key are written in batches, each batch in one transaction. Every
     * request is checked before anything is stored.
     * @param requests the jobs
     * @return the scheduled jobs, in order
     * @throws UnknownJobException if no {@code @JobHandler} has a request's name
     * @throws IllegalArgumentException if a payload cannot be written as JSON, or not read as its
     *     handler's payload type
     */
    public List<ScheduledJob> submitAll(List<OneOff> requests) {
        if (requests.isEmpty()) {
            return List.of();
        }
        Instant now = this.clock.instant();
        List<HandlerDefinition> handlers = new ArrayList<>(requests.size());
        List<String> payloads = new ArrayList<>(requests.size());
        List<ExecutionRecord> unkeyed = new ArrayList<>();
        for (OneOff request : requests) {
            HandlerDefinition handler = handler(request.handler());
            String payload = payload(handler, request.payload());
            handlers.add(handler);
            payloads.add(payload);
            if (request.key() == null) {
                Instant dueAt = request.dueAt(now);
                unkeyed.add(ExecutionRecord.waiting(
                        handler.name(),
                        dueAt,
                        1,
                        handler.name() + ":" + UUID.randomUUID(),
                        ExecutionOrigin.ONE_OFF,
                        this.nodeId,
                        now,
                        dueAt,
                        payload,
                        null));
            }
        }
        List<String> names =
                handlers.stream().map(HandlerDefinition::name).distinct().toList();
        String job = (names.size() == 1) ? names.get(0) : "several";
        List<ScheduledJob> scheduled = this.observer.observe(job, requests.size(), (traceCarrier) -> {
            Iterator<ExecutionRecord> saved =
                    this.store.inserts().insertAll(unkeyed, traceCarrier).iterator();
            List<ScheduledJob> jobs = new ArrayList<>(requests.size());
            for (int i = 0; i < requests.size(); i++) {
                OneOff request = requests.get(i);
                if (request.key() == null) {
                    ExecutionRecord row = saved.next();
                    jobs.add(new ScheduledJob(row.id(), row.jobName(), row.idempotencyKey(), row.scheduledAt(), true));
                } else {
                    jobs.add(submit(handlers.get(i), payloads.get(i), request, traceCarrier));
                }
            }
            return jobs;
        });
        if (unkeyed.stream().anyMatch((row) -> !row.dueAt().isAfter(now))) {
            this.wakeQueue.run();
        }
        return scheduled;
    }

    /**
     * Stops a scheduled job from firing, on every node, until it is resumed. Attempts already
     * waiting (retries) still run.
     * @param job the job's name
     * @throws UnknownJobException if there is no such job
     */
    public void pause(String job) {
        act((quartz) -> quartz.pauseTrigger(existing(quartz, job)));
    }

    /**
     * Lets a paused job fire again; a fire it missed while paused follows its misfire policy.
     * @param job the job's name
     * @throws UnknownJobException if there is no such job
     */
    public void resume(String job) {
        act((quartz) -> quartz.resumeTrigger(existing(quartz, job)));
    }

    /**
     * Whether a job is paused.
     * @param job the job's name
     * @return {@code true} if paused
     * @throws UnknownJobException if there is no such job
     */
    public boolean isPaused(String job) {
        return quartz((quartz) -> quartz.getTriggerState(existing(quartz, job)) == Trigger.TriggerState.PAUSED);
    }

    /**
     * Runs a scheduled job once now, outside its schedule, as an attempt of its own (origin
     * {@code MANUAL}); it does not overlap a running fire of the job.
     * @param job the job's name
     * @return the scheduled run
     * @throws UnknownJobException if this node does not declare the job
     */
    public ScheduledJob trigger(String job) {
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
    public ScheduledJob trigger(String job, Object params) {
        Optional<RuntimeJobRecord> runtime = this.runtimeJobs.record(job);
        if (this.jobs.definition(job).isEmpty() && runtime.isEmpty()) {
            throw new UnknownJobException("No scheduled job named '" + job + "' on this node");
        }
        if (params != null && runtime.isEmpty()) {
            throw new IllegalArgumentException("'" + job + "' is declared in code and takes no parameters");
        }
        String payload = (params != null) ? payload(handler(runtime.get().handler()), params) : null;
        String name = job;
        Instant now = this.clock.instant();
        String key = ExecutionRecord.idempotencyKey(name, now) + "#manual-"
                + UUID.randomUUID().toString().substring(0, 8);
        ExecutionRecord run = this.observer.observe(name, 1, (traceCarrier) -> this.store
                .inserts()
                .claim(
                        ExecutionRecord.waiting(
                                name,
                                now,
                                1,
                                key,
                                ExecutionOrigin.MANUAL,
                                this.nodeId,
                                now,
                                now,
                                payload,
                                "triggered by hand"),
                        traceCarrier)
                .orElseThrow());
        this.wakeQueue.run();
        return new ScheduledJob(run.id(), name, key, now, true);
    }

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
    public Cancellation cancel(long executionId) {
        return cancel(executionId, "the application on node " + this.nodeId);
    }

    /**
     * Cancels an attempt, as {@link #cancel(long)} does, naming who asks.
     * @param executionId the attempt's id
     * @param requestedBy who asks, recorded in the attempt's reason ("cancelled by ...")
     * @return what the request did
     */
    public Cancellation cancel(long executionId, String requestedBy) {
        return this.store.cancels().cancel(executionId, requestedBy, this.clock.instant());
    }

    /**
     * Cancels the current attempt of a fire, as {@link #cancel(long)} does: the newest attempt
     * under the fire's key.
     * @param idempotencyKey the fire's key, as {@link ScheduledJob#idempotencyKey()} and {@link
     *     io.dsched.execution.JobContext#idempotencyKey()} give it
     * @param requestedBy who asks
     * @return what the request did; {@link Cancellation.Result#NOT_FOUND} if the fire has no attempt
     */
    public Cancellation cancelByKey(String idempotencyKey, String requestedBy) {
        List<ExecutionRecord> attempts = this.store.repository().findByIdempotencyKey(idempotencyKey);
        if (attempts.isEmpty()) {
            return new Cancellation(null, null, Cancellation.Result.NOT_FOUND);
        }
        return cancel(attempts.get(attempts.size() - 1).id(), requestedBy);
    }

    /**
     * Cancels a one-off job submitted with the caller's own key ({@link OneOff#withKey(String)}),
     * as {@link #cancel(long)} does.
     * @param handler the job's handler
     * @param key the key it was submitted with
     * @return what the request did
     */
    public Cancellation cancelOneOff(String handler, String key) {
        return cancelByKey(handler + ":" + key, "the application on node " + this.nodeId);
    }

    /**
     * Changes a scheduled job's schedule at run time, on every node. The change stays in force
     * across restarts until a deployment changes the job's declared schedule.
     * @param job the job's name
     * @param schedule the new schedule
     * @throws UnknownJobException if this node does not declare the job
     * @throws IllegalArgumentException if the schedule is invalid
     */
    public void reschedule(String job, Schedule schedule) {
        if (this.runtimeJobs.record(job).isPresent()) {
            update(job, schedule, null);
            return;
        }
        JobDefinition definition = declared(job);
        validate(schedule);
        Trigger trigger = Triggers.forJob(definition, schedule, this.clock);
        act((quartz) -> quartz.rescheduleJob(existing(quartz, job), trigger));
    }

    /**
     * Returns the schedule a job fires on now: the declared one, or one set at run time.
     * @param job the job's name
     * @return a description of the schedule
     * @throws UnknownJobException if there is no such job
     */
    public String scheduleOf(String job) {
        Optional<RuntimeJobRecord> runtime = this.runtimeJobs.record(job);
        if (runtime.isPresent()) {
            return runtime.get().schedule().describe();
        }
        return quartz((quartz) -> {
            Trigger trigger = quartz.getTrigger(existing(quartz, job));
            String override = Triggers.override(trigger);
            return (override != null) ? override : declared(job).schedule().describe();
        });
    }

    private static void validate(Schedule schedule) {
        if (schedule instanceof Schedule.Cron cron) {
            boolean never;
            try {
                never = cron.neverFires();
            } catch (IllegalArgumentException ex) {
                throw new IllegalArgumentException(
                        "Invalid cron expression '" + cron.expression() + "': " + ex.getMessage(), ex);
            }
            if (never) {
                throw new IllegalArgumentException(
                        "Cron expression '" + cron.expression() + "' never fires: no date matches it");
            }
        }
        if (schedule instanceof Schedule.FixedRate rate
                && (rate.interval().isZero() || rate.interval().isNegative())) {
            throw new IllegalArgumentException("fixedRate must be longer than zero, was " + rate.interval());
        }
        if (schedule instanceof Schedule.FixedRate rate && rate.interval().compareTo(MAX_RATE) > 0) {
            throw new IllegalArgumentException(
                    "fixedRate must be at most " + MAX_RATE.toDays() + "d, was " + rate.interval());
        }
        if (schedule instanceof Schedule.FixedDelay delay
                && (delay.delay().isZero() || delay.delay().isNegative())) {
            throw new IllegalArgumentException("fixedDelay must be longer than zero, was " + delay.delay());
        }
    }

    private JobDefinition declared(String job) {
        return this.jobs
                .definition(job)
                .orElseThrow(() -> new UnknownJobException(
                        "No scheduled job named '" + job + "' on this node; jobs: " + this.jobs.names()));
    }

    private static TriggerKey existing(Scheduler quartz, String job) throws SchedulerException {
        TriggerKey declared = JobSynchronizer.triggerKey(job);
        if (quartz.checkExists(declared)) {
            return declared;
        }
        TriggerKey runtime = TriggerKey.triggerKey(job, RuntimeJobs.GROUP);
        if (quartz.checkExists(runtime)) {
            return runtime;
        }
        throw new UnknownJobException("No scheduled job named '" + job + "'");
    }

    /**
     * Creates a recurring job at run time, on every node; it survives restarts until deleted.
     * @param job the job
     * @throws IllegalArgumentException if the name is taken, the handler unknown, the schedule
     *     invalid or the parameters cannot be written as JSON for the handler; nothing is stored
     */
    public void create(RecurringJob job) {
        if (job.name().isBlank() || job.name().length() > 200) {
            throw new IllegalArgumentException("A job name has 1 to 200 characters");
        }
        if (this.jobs.definition(job.name()).isPresent()
                || this.runtimeJobs.record(job.name()).isPresent()) {
            throw new IllegalArgumentException("A job named '" + job.name() + "' exists already");
        }
        HandlerDefinition handler = handler(job.handler());
        validateRuntime(job.schedule());
        Instant now = this.clock.instant();
        RuntimeJobRecord record =
                record(job.name(), handler, job.schedule(), payload(handler, job.params()), job.misfire(), now, now);
        this.runtimeJobs.insert(record);
        try {
            act((quartz) -> this.runtimeJobs.schedule(quartz, record));
        } catch (RuntimeException ex) {
            this.runtimeJobs.delete(job.name(), now);
            throw ex;
        }
    }

    /**
     * Changes a recurring job defined at run time.
     * @param job the job's name
     * @param schedule its new schedule, or {@code null} to keep it
     * @param params its new parameters, or {@code null} to keep them
     * @throws UnknownJobException if no job of that name was defined at run time
     */
    public void update(String job, Schedule schedule, Object params) {
        RuntimeJobRecord known = this.runtimeJobs
                .record(job)
                .orElseThrow(() -> new UnknownJobException("No job named '" + job + "' was defined at run time"));
        HandlerDefinition handler = handler(known.handler());
        if (schedule != null) {
            validateRuntime(schedule);
        }
        String newParams = (params != null) ? payload(handler, params) : null;
        // from the stored job as it is at the change, and with its trigger: together or not at all
        this.runtimeJobs.change(
                job,
                (current) -> record(
                        job,
                        handler,
                        (schedule != null) ? schedule : current.schedule(),
                        (newParams != null) ? newParams : current.params(),
                        current.misfire(),
                        current.createdAt(),
                        this.clock.instant()),
                (record) -> act((quartz) -> this.runtimeJobs.schedule(quartz, record)));
    }

    /**
     * Deletes a recurring job defined at run time, on every node: its trigger, then the job and
     * its attempts that wait to run, such as a retry, in one transaction (they are cancelled). A
     * run in progress finishes; if it fails, it is not retried but dead-lettered.
     * @param job the job's name
     * @throws UnknownJobException if no job of that name was defined at run time
     * @throws IllegalArgumentException for a job declared in code: remove its annotation instead
     */
    public void delete(String job) {
        if (this.jobs.definition(job).isPresent()) {
            throw new IllegalArgumentException("'" + job + "' is declared in code; remove its @DistributedScheduled");
        }
        if (this.runtimeJobs.record(job).isEmpty()) {
            throw new UnknownJobException("No job named '" + job + "' was defined at run time");
        }
        // its trigger first, so that no fire starts between the two
        act((quartz) -> quartz.deleteJob(JobKey.jobKey(job, RuntimeJobs.GROUP)));
        this.runtimeJobs.delete(job, this.clock.instant());
    }

    /**
     * Returns a recurring job defined at run time.
     * @param job the job's name
     * @return the job, or empty
     */
    public Optional<RuntimeJobRecord> recurring(String job) {
        return this.runtimeJobs.record(job);
    }

    private HandlerDefinition handler(String name) {
        return this.handlers
                .handler(name)
                .orElseThrow(() -> new UnknownJobException(
                        "No @JobHandler named '" + name + "'; known handlers: " + this.handlers.names()));
    }

    private static void validateRuntime(Schedule schedule) {
        if (schedule instanceof Schedule.FixedDelay) {
            throw new IllegalArgumentException("A job defined at run time fires on a cron or a fixed rate");
        }
        validate(schedule);
    }

    private static RuntimeJobRecord record(
            String name,
            HandlerDefinition handler,
            Schedule schedule,
            String params,
            io.dsched.definition.MisfirePolicy misfire,
            Instant createdAt,
            Instant updatedAt) {
        String cron = null;
        String zone = null;
        Long interval = null;
        if (schedule instanceof Schedule.Cron c) {
            cron = c.expression();
            zone = (c.zone() != null) ? c.zone().getId() : null;
        } else {
            interval = ((Schedule.FixedRate) schedule).interval().toMillis();
        }
        return new RuntimeJobRecord(name, handler.name(), cron, zone, interval, params, misfire, createdAt, updatedAt);
    }

    private String payload(HandlerDefinition handler, Object payload) {
        if (payload == null) {
            return null;
        }
        JsonMapper mapper = this.json.get();
        String text;
        try {
            text = mapper.writeValueAsString(payload);
        } catch (JacksonException ex) {
            throw new IllegalArgumentException(
                    "The payload of '" + handler.name() + "' cannot be written as JSON: " + ex.getOriginalMessage(),
                    ex);
        }
        if (text.length() > MAX_PAYLOAD) {
            throw new IllegalArgumentException("The payload of '" + handler.name() + "' has " + text.length()
                    + " characters of JSON; at most " + MAX_PAYLOAD + " are allowed");
        }
        if (handler.payloadType() != null) {
            try {
                mapper.readValue(text, mapper.getTypeFactory().constructType(handler.payloadType()));
            } catch (JacksonException ex) {
                throw new IllegalArgumentException(
                        "The payload of '" + handler.name() + "' cannot be read as "
                                + handler.payloadType().getTypeName() + " " + JsonProblem.where(ex),
                        ex);
            }
        }
        return text;
    }

    private <T> T quartz(QuartzCall<T> call) {
        for (int attempt = 1; ; attempt++) {
            try {
                return call.apply(this.scheduler.get());
            } catch (SchedulerException ex) {
                // a change of a trigger can deadlock with a node firing it (MariaDB, MySQL): the
                // database rolled the change back, so it is safe to make it again
                if (attempt < DEADLOCK_ATTEMPTS && isDeadlock(ex)) {
                    pause(attempt);
                    continue;
                }
                throw new IllegalStateException("The job store did not answer: " + ex.getMessage(), ex);
            }
        }
    }

    private static boolean isDeadlock(Throwable failure) {
        for (Throwable cause = failure; cause != null && cause.getCause() != cause; cause = cause.getCause()) {
            if (cause instanceof SQLTransactionRollbackException
                    || (cause instanceof SQLException sql
                            && sql.getSQLState() != null
                            && sql.getSQLState().startsWith("40"))) {
                return true;
            }
        }
        return false;
    }

    private static void pause(int attempt) {
        try {
            Thread.sleep(50L * attempt);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while changing a job", ex);
        }
    }

    private void act(QuartzAction action) {
        quartz((quartz) -> {
            action.apply(quartz);
            return null;
        });
    }

    @FunctionalInterface
    private interface QuartzCall<T> {
        T apply(Scheduler scheduler) throws SchedulerException;
    }

    @FunctionalInterface
    private interface QuartzAction {
        void apply(Scheduler scheduler) throws SchedulerException;
    }
}
