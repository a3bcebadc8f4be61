package io.dsched.engine;

import io.dsched.definition.JobDefinition;
import io.dsched.definition.JobRegistry;
import io.dsched.definition.Schedule;
import io.dsched.store.JobDefinitionStore;
import io.dsched.store.JobDefinitionStore.Decision;
import java.time.Clock;
import java.util.Date;
import java.util.Set;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.quartz.TriggerKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the jobs this node declares into the shared Quartz store at start-up.
 *
 * <p>A job whose definition is unchanged keeps its stored trigger, and so its next fire time and
 * any pending misfire; a changed definition replaces the trigger; a definition that a newer
 * deployment already replaced is left alone (see {@link JobDefinitionStore}).
 */
public final class JobSynchronizer {

    /** The Quartz group of jobs declared with {@code @DistributedScheduled}. */
    public static final String GROUP = "dsched";

    private static final Logger logger = LoggerFactory.getLogger(JobSynchronizer.class);

    private final Scheduler scheduler;

    private final JobRegistry registry;

    private final JobDefinitionStore definitions;

    private final String nodeId;

    private final boolean reapplySuperseded;

    private final Clock clock;

    /**
     * Creates a synchronizer.
     * @param scheduler this node's Quartz scheduler
     * @param registry the jobs this node declares
     * @param definitions the record of definitions in force
     * @param nodeId this node
     * @param reapplySuperseded whether replaced definitions may be applied again
     * @param clock the clock
     */
    public JobSynchronizer(
            Scheduler scheduler,
            JobRegistry registry,
            JobDefinitionStore definitions,
            String nodeId,
            boolean reapplySuperseded,
            Clock clock) {
        this.scheduler = scheduler;
        this.registry = registry;
        this.definitions = definitions;
        this.nodeId = nodeId;
        this.reapplySuperseded = reapplySuperseded;
        this.clock = clock;
    }

    /**
     * Brings every declared job into the store.
     * @throws SchedulerException if the store cannot be written
     */
    public void synchronize() throws SchedulerException {
        for (JobDefinition job : this.registry.all()) {
            Decision decision = this.definitions.adopt(job, this.nodeId, this.reapplySuperseded);
            TriggerKey triggerKey = TriggerKey.triggerKey(job.name(), GROUP);
            boolean stored = this.scheduler.checkExists(triggerKey);
            if (decision == Decision.APPLY || !stored) {
                JobDetail detail = jobDetail(job);
                this.scheduler.scheduleJob(detail, Set.of(trigger(job, detail.getKey())), true);
                logger.info("Scheduled job '{}': {}", job.name(), job.schedule().describe());
            } else if (decision == Decision.SUPERSEDED) {
                logger.info(
                        "Keeping the stored schedule of '{}': a newer deployment replaced this node's {}"
                                + " (set dsched.jobs.reapply-superseded=true to roll back)",
                        job.name(),
                        job.schedule().describe());
            } else {
                logger.debug(
                        "Job '{}' is unchanged: {}", job.name(), job.schedule().describe());
            }
        }
    }

    private static JobDetail jobDetail(JobDefinition job) {
        return JobBuilder.newJob(DschedQuartzJob.class)
                .withIdentity(job.name(), GROUP)
                .withDescription(job.source())
                .storeDurably()
                .build();
    }

    private Trigger trigger(JobDefinition job, JobKey jobKey) {
        TriggerBuilder<Trigger> builder =
                TriggerBuilder.newTrigger().withIdentity(job.name(), GROUP).forJob(jobKey);
        if (job.schedule() instanceof Schedule.Cron cron) {
            return builder.withSchedule(SpringCronScheduleBuilder.cron(cron.expression(), cron.zone()))
                    .startNow()
                    .build();
        }
        long interval;
        long initialDelay;
        if (job.schedule() instanceof Schedule.FixedRate rate) {
            interval = rate.interval().toMillis();
            initialDelay = rate.initialDelay().toMillis();
        } else {
            Schedule.FixedDelay delay = (Schedule.FixedDelay) job.schedule();
            interval = delay.delay().toMillis();
            initialDelay = delay.initialDelay().toMillis();
        }
        return builder.withSchedule(repeating(interval))
                .startAt(new Date(this.clock.millis() + initialDelay))
                .build();
    }

    private static SimpleScheduleBuilder repeating(long intervalMillis) {
        return SimpleScheduleBuilder.simpleSchedule()
                .withIntervalInMilliseconds(intervalMillis)
                .repeatForever()
                .withMisfireHandlingInstructionNowWithExistingCount();
    }
}
