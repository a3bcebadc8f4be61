package io.dsched.engine;

import io.dsched.definition.JobDefinition;
import io.dsched.definition.JobRegistry;
import io.dsched.definition.Schedule;
import io.dsched.execution.FireExecutor;
import io.dsched.quartz.FireClaims;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import org.quartz.JobExecutionContext;
import org.quartz.SchedulerException;
import org.quartz.Trigger;
import org.quartz.TriggerKey;
import org.quartz.spi.JobFactory;
import org.quartz.spi.TriggerFiredBundle;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Receives every fire Quartz hands this node and runs it through the {@link FireExecutor}; it is
 * also the Quartz {@link JobFactory} that creates the jobs which call it.
 */
public final class FireDispatcher implements JobFactory, FireClaims {

    private static final Logger logger = LoggerFactory.getLogger(FireDispatcher.class);

    private final FireExecutor executor;

    private final JobRegistry registry;

    private final Clock clock;

    /**
     * Creates a dispatcher.
     * @param executor runs fires
     * @param registry the jobs this node declares
     * @param clock the clock
     */
    public FireDispatcher(FireExecutor executor, JobRegistry registry, Clock clock) {
        this.executor = executor;
        this.registry = registry;
        this.clock = clock;
    }

    @Override
    public DschedQuartzJob newJob(TriggerFiredBundle bundle, org.quartz.Scheduler scheduler) {
        return new DschedQuartzJob(this);
    }

    @Override
    public Runnable claim(Connection connection, List<TriggerFiredBundle> fired) throws SQLException {
        List<FireExecutor.Fire> fires = new ArrayList<>(fired.size());
        for (TriggerFiredBundle bundle : fired) {
            fires.add(new FireExecutor.Fire(
                    bundle.getJobDetail().getKey().getName(),
                    bundle.getScheduledFireTime().toInstant(),
                    bundle.getTrigger().getFireInstanceId()));
        }
        return this.executor.claimAhead(connection, fires);
    }

    void dispatch(JobExecutionContext context) {
        String jobName = context.getJobDetail().getKey().getName();
        try {
            this.executor.fire(jobName, context.getScheduledFireTime().toInstant(), context.getFireInstanceId());
        } finally {
            this.registry
                    .definition(jobName)
                    .filter((job) -> job.schedule() instanceof Schedule.FixedDelay)
                    .ifPresent((job) -> scheduleNextAfterDelay(context, job));
        }
    }

    private void scheduleNextAfterDelay(JobExecutionContext context, JobDefinition job) {
        TriggerKey key = JobSynchronizer.triggerKey(job.name());
        if (!key.equals(context.getTrigger().getKey())) {
            return;
        }
        Schedule.FixedDelay schedule = (Schedule.FixedDelay) job.schedule();
        try {
            Trigger stored = context.getScheduler().getTrigger(key);
            // a newer deployment may have changed the job's schedule meanwhile: leave its trigger alone
            if (stored == null || !job.fingerprint().equals(JobSynchronizer.fingerprint(stored))) {
                return;
            }
            Date next = new Date(this.clock.millis() + schedule.delay().toMillis());
            context.getScheduler()
                    .rescheduleJob(key, stored.getTriggerBuilder().startAt(next).build());
        } catch (SchedulerException ex) {
            logger.warn(
                    "Could not time the next run of '{}' from the end of this one; it keeps its fixed rate",
                    job.name(),
                    ex);
        }
    }
}
