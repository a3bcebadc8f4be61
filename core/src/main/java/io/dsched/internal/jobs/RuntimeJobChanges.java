package io.dsched.internal.jobs;

import io.dsched.definition.MisfirePolicy;
import io.dsched.definition.Schedule;
import io.dsched.internal.definition.JobRegistry;
import io.dsched.internal.execution.Sharding;
import io.dsched.internal.handler.HandlerDefinition;
import io.dsched.internal.store.ShardSettings;
import io.dsched.jobs.RecurringJob;
import io.dsched.jobs.RuntimeJobRecord;
import io.dsched.jobs.UnknownJobException;
import java.time.Clock;
import java.time.Instant;
import org.quartz.JobKey;

/** Creates, changes and deletes the recurring jobs defined at run time: their rows and their triggers. */
final class RuntimeJobChanges {

    private final JobRegistry jobs;

    private final RuntimeJobs runtimeJobs;

    private final Payloads payloads;

    private final QuartzCalls quartz;

    private final Clock clock;

    RuntimeJobChanges(JobRegistry jobs, RuntimeJobs runtimeJobs, Payloads payloads, QuartzCalls quartz, Clock clock) {
        this.jobs = jobs;
        this.runtimeJobs = runtimeJobs;
        this.payloads = payloads;
        this.quartz = quartz;
        this.clock = clock;
    }

    void create(RecurringJob job) {
        if (job.name().isBlank() || job.name().length() > 200) {
            throw new IllegalArgumentException("A job name has 1 to 200 characters");
        }
        if (this.jobs.definition(job.name()).isPresent()
                || this.runtimeJobs.record(job.name()).isPresent()) {
            throw new IllegalArgumentException("A job named '" + job.name() + "' exists already");
        }
        HandlerDefinition handler = this.payloads.handler(job.handler());
        ScheduleRules.validateRuntime(job.schedule());
        Sharding shards = shards(job);
        Instant now = this.clock.instant();
        RuntimeJobRecord record = record(
                job.name(),
                handler,
                job.schedule(),
                this.payloads.write(handler, job.params()),
                job.misfire(),
                (shards != null) ? shards.count() : null,
                (shards != null) ? ShardSettings.paramsJson(shards.params()) : null,
                now,
                now);
        this.runtimeJobs.store().insert(record);
        try {
            this.quartz.act((quartz) -> this.runtimeJobs.schedule(quartz, record));
        } catch (RuntimeException ex) {
            this.runtimeJobs.store().delete(job.name(), now);
            throw ex;
        }
    }

    void update(String job, Schedule schedule, Object params) {
        RuntimeJobRecord known = this.runtimeJobs
                .record(job)
                .orElseThrow(() -> new UnknownJobException("No job named '" + job + "' was defined at run time"));
        HandlerDefinition handler = this.payloads.handler(known.handler());
        if (schedule != null) {
            ScheduleRules.validateRuntime(schedule);
        }
        String newParams = (params != null) ? this.payloads.write(handler, params) : null;
        // from the stored job as it is at the change, and with its trigger: together or not at all
        this.runtimeJobs
                .store()
                .change(
                        job,
                        (current) -> record(
                                job,
                                handler,
                                (schedule != null) ? schedule : current.schedule(),
                                (newParams != null) ? newParams : current.params(),
                                current.misfire(),
                                current.shards(),
                                current.shardParams(),
                                current.createdAt(),
                                this.clock.instant()),
                        (record) -> this.quartz.act((quartz) -> this.runtimeJobs.schedule(quartz, record)));
    }

    void delete(String job) {
        if (this.jobs.definition(job).isPresent()) {
            throw new IllegalArgumentException("'" + job + "' is declared in code; remove its @DistributedScheduled");
        }
        if (this.runtimeJobs.record(job).isEmpty()) {
            throw new UnknownJobException("No job named '" + job + "' was defined at run time");
        }
        // its trigger first, so that no fire starts between the two
        this.quartz.act((quartz) -> quartz.deleteJob(JobKey.jobKey(job, RuntimeJobs.GROUP)));
        this.runtimeJobs.store().delete(job, this.clock.instant());
    }

    private static RuntimeJobRecord record(
            String name,
            HandlerDefinition handler,
            Schedule schedule,
            String params,
            MisfirePolicy misfire,
            Integer shards,
            String shardParams,
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
        return new RuntimeJobRecord(
                name, handler.name(), cron, zone, interval, params, misfire, shards, shardParams, createdAt, updatedAt);
    }

    /** The shards a job is created with, checked as a declaration's are; {@code null} for none. */
    private static Sharding shards(RecurringJob job) {
        if (job.shards() == 0) {
            if (!job.shardParams().isEmpty()) {
                throw new IllegalArgumentException("shardParams are given, but no shards");
            }
            return null;
        }
        job.shardParams().forEach((index, param) -> {
            if (param == null || param.length() > Sharding.MAX_PARAM) {
                throw new IllegalArgumentException("shard " + index + "'s parameter must be text of at most "
                        + Sharding.MAX_PARAM + " characters");
            }
        });
        return new Sharding(job.shards(), job.shardParams());
    }
}
