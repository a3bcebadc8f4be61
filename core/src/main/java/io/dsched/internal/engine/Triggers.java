package io.dsched.internal.engine;

import io.dsched.definition.MisfirePolicy;
import io.dsched.definition.Schedule;
import io.dsched.internal.definition.JobDefinition;
import io.dsched.quartz.SpringCronScheduleBuilder;
import java.time.Clock;
import java.util.Date;
import org.quartz.JobKey;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;

/**
 * Builds the Quartz trigger of a job. The trigger carries the fingerprint of the job's declared
 * definition, so that nodes can tell whether the stored trigger is the one they declare, and the
 * description of a schedule set at run time, if any.
 */
public final class Triggers {

    /** Job data key of the declared definition's fingerprint. */
    static final String FINGERPRINT = "dsched.fingerprint";

    /** Job data key of a schedule set at run time, replacing the declared one. */
    static final String OVERRIDE = "dsched.override";

    private Triggers() {}

    /**
     * Builds a job's trigger.
     * @param job the job as declared
     * @param schedule the schedule to fire on: the declared one, or one set at run time
     * @param clock the clock, for start times
     * @return the trigger
     */
    public static Trigger forJob(JobDefinition job, Schedule schedule, Clock clock) {
        return forJob(job, schedule, clock, JobSynchronizer.GROUP);
    }

    /**
     * Builds a job's trigger in a Quartz group.
     * @param job the job
     * @param schedule the schedule to fire on
     * @param clock the clock, for start times
     * @param group the Quartz group of the job and its trigger
     * @return the trigger
     */
    public static Trigger forJob(JobDefinition job, Schedule schedule, Clock clock, String group) {
        TriggerBuilder<Trigger> builder = TriggerBuilder.newTrigger()
                .withIdentity(job.name(), group)
                .forJob(JobKey.jobKey(job.name(), group))
                .usingJobData(FINGERPRINT, job.fingerprint());
        if (!schedule.equals(job.schedule())) {
            builder.usingJobData(OVERRIDE, schedule.describe());
        }
        if (schedule instanceof Schedule.Cron cron) {
            SpringCronScheduleBuilder cronSchedule =
                    SpringCronScheduleBuilder.cron(cron.expression(), cron.effectiveZone());
            return builder.withSchedule(
                            (job.misfire() == MisfirePolicy.SKIP)
                                    ? cronSchedule.withMisfireHandlingInstructionDoNothing()
                                    : cronSchedule.withMisfireHandlingInstructionFireOnceNow())
                    .startNow()
                    .build();
        }
        long interval;
        long initialDelay;
        if (schedule instanceof Schedule.FixedRate rate) {
            interval = rate.interval().toMillis();
            initialDelay = rate.initialDelay().toMillis();
        } else {
            Schedule.FixedDelay delay = (Schedule.FixedDelay) schedule;
            interval = delay.delay().toMillis();
            initialDelay = delay.initialDelay().toMillis();
        }
        SimpleScheduleBuilder repeating = SimpleScheduleBuilder.simpleSchedule()
                .withIntervalInMilliseconds(interval)
                .repeatForever();
        return builder.withSchedule(
                        (job.misfire() == MisfirePolicy.SKIP)
                                ? repeating.withMisfireHandlingInstructionNextWithRemainingCount()
                                : repeating.withMisfireHandlingInstructionNowWithExistingCount())
                .startAt(new Date(clock.millis() + initialDelay))
                .build();
    }

    /**
     * Returns the schedule set at run time that a stored trigger fires on, if any.
     * @param trigger a stored trigger
     * @return the description of that schedule, or {@code null} if it fires as declared
     */
    public static String override(Trigger trigger) {
        return trigger.getJobDataMap().getString(OVERRIDE);
    }
}
