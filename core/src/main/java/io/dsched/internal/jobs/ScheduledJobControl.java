package io.dsched.internal.jobs;

import io.dsched.definition.Schedule;
import io.dsched.internal.definition.JobDefinition;
import io.dsched.internal.definition.JobRegistry;
import io.dsched.internal.engine.Triggers;
import io.dsched.jobs.RuntimeJobRecord;
import io.dsched.jobs.UnknownJobException;
import java.time.Clock;
import java.util.Optional;
import org.quartz.Trigger;

/** Pauses, resumes and reschedules the triggers of scheduled jobs, declared or defined at run time. */
final class ScheduledJobControl {

    private final JobRegistry jobs;

    private final RuntimeJobs runtimeJobs;

    private final RuntimeJobChanges runtimeChanges;

    private final QuartzCalls quartz;

    private final Clock clock;

    ScheduledJobControl(
            JobRegistry jobs,
            RuntimeJobs runtimeJobs,
            RuntimeJobChanges runtimeChanges,
            QuartzCalls quartz,
            Clock clock) {
        this.jobs = jobs;
        this.runtimeJobs = runtimeJobs;
        this.runtimeChanges = runtimeChanges;
        this.quartz = quartz;
        this.clock = clock;
    }

    void pause(String job) {
        this.quartz.act((quartz) -> quartz.pauseTrigger(QuartzCalls.existing(quartz, job)));
    }

    void resume(String job) {
        this.quartz.act((quartz) -> quartz.resumeTrigger(QuartzCalls.existing(quartz, job)));
    }

    boolean isPaused(String job) {
        return this.quartz.call(
                (quartz) -> quartz.getTriggerState(QuartzCalls.existing(quartz, job)) == Trigger.TriggerState.PAUSED);
    }

    void reschedule(String job, Schedule schedule) {
        if (this.runtimeJobs.record(job).isPresent()) {
            this.runtimeChanges.update(job, schedule, null);
            return;
        }
        JobDefinition definition = declared(job);
        ScheduleRules.validate(schedule);
        Trigger trigger = Triggers.forJob(definition, schedule, this.clock);
        this.quartz.act((quartz) -> quartz.rescheduleJob(QuartzCalls.existing(quartz, job), trigger));
    }

    String scheduleOf(String job) {
        Optional<RuntimeJobRecord> runtime = this.runtimeJobs.record(job);
        if (runtime.isPresent()) {
            return runtime.get().schedule().describe();
        }
        return this.quartz.call((quartz) -> {
            Trigger trigger = quartz.getTrigger(QuartzCalls.existing(quartz, job));
            String override = Triggers.override(trigger);
            return (override != null) ? override : declared(job).schedule().describe();
        });
    }

    private JobDefinition declared(String job) {
        return this.jobs
                .definition(job)
                .orElseThrow(() -> new UnknownJobException(
                        "No scheduled job named '" + job + "' on this node; jobs: " + this.jobs.names()));
    }
}
