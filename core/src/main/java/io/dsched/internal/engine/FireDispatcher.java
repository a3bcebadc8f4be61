package io.dsched.internal.engine;

import io.dsched.definition.Schedule;
import io.dsched.engine.DschedQuartzJob;
import io.dsched.internal.definition.JobDefinition;
import io.dsched.internal.definition.JobRegistry;
import io.dsched.internal.execution.Attempt;
import io.dsched.internal.execution.Fire;
import io.dsched.internal.execution.FireExecutor;
import io.dsched.quartz.FireClaims;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import org.quartz.JobDataMap;
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

    /** The key of the attempt claimed in the fire's transaction, in the fire's job data. */
    static final String CLAIMED_AHEAD = "io.dsched.claimedAhead";

    private final FireExecutor executor;

    private final JobRegistry registry;

    // Quartz's scheduler thread starts a trigger up to 2 ms before its time, and the history keeps
    // milliseconds: without the pad a fixed delay's next run could be recorded as starting a
    // millisecond or two short of the delay after the previous one ended
    private static final long EARLY_FIRE_PAD_MILLIS = 3;

    private final Clock clock;

    private volatile boolean stopping;

    /**
     * Creates a dispatcher.
     * @param executor runs fires
     * @param registry the jobs this node declares
     * @param clock the node's own clock, which Quartz fires by: the next run of a fixed-delay job
     *     is timed by it (another node fires it by its own clock, which may differ by the clocks'
     *     skew, at most dsched.cluster.max-clock-skew between nodes that take fires)
     */
    public FireDispatcher(FireExecutor executor, JobRegistry registry, Clock clock) {
        this.executor = executor;
        this.registry = registry;
        this.clock = clock;
    }

    /**
     * Creates the job of a fire, and tells the {@link TimedWorkerPool} when the fire is to start,
     * the group whose workers run it, whether it may be spilled and, if it was claimed in the
     * transaction that fired it, that it is in its worker's hands from the moment that worker
     * starts it.
     */
    @Override
    public DschedQuartzJob newJob(TriggerFiredBundle bundle, org.quartz.Scheduler scheduler) {
        Attempt claimedAhead = claimedAhead(bundle.getJobDetail().getJobDataMap());
        Date scheduledAt = bundle.getScheduledFireTime();
        String jobName = bundle.getJobDetail().getKey().getName();
        TimedWorkerPool.startAt(
                (scheduledAt != null) ? scheduledAt.getTime() : 0,
                this.executor.groupOf(jobName),
                // a fixed delay's next fire is timed from the end of this one: it waits for its workers
                this.registry
                        .definition(jobName)
                        .filter((job) -> job.schedule() instanceof Schedule.FixedDelay)
                        .isEmpty(),
                (claimedAhead != null) ? () -> this.executor.handedOver(claimedAhead) : () -> {});
        return new DschedQuartzJob(this::dispatch);
    }

    private static Attempt claimedAhead(JobDataMap data) {
        return (data.get(CLAIMED_AHEAD) instanceof Attempt claimed) ? claimed : null;
    }

    /**
     * Claims fires in the transaction that fires them and, once it has committed, hands each claim
     * to its fire: the claimed attempt travels in the fire's job details to the worker that runs it.
     */
    @Override
    public Claimed claim(Connection connection, List<TriggerFiredBundle> fired) throws SQLException {
        List<Fire> fires = new ArrayList<>(fired.size());
        for (TriggerFiredBundle bundle : fired) {
            fires.add(fire(bundle));
        }
        Map<Fire, Attempt> claimed = this.executor.claimAhead(connection, fires);
        if (claimed.isEmpty()) {
            return null;
        }
        return new Claimed() {

            @Override
            public void committed() {
                for (TriggerFiredBundle bundle : fired) {
                    Attempt attempt = claimed.get(fire(bundle));
                    if (attempt != null) {
                        // the bundle's job details are read anew for each fire and never stored
                        // again: dsched's job does not persist its data after it runs
                        bundle.getJobDetail().getJobDataMap().put(CLAIMED_AHEAD, attempt);
                    }
                }
            }

            @Override
            public void notCommitted() {
                FireDispatcher.this.executor.notCommitted(claimed.values());
            }
        };
    }

    /**
     * Leaves a fire that was claimed ahead of its time but that no worker will start to any node,
     * to run at its time.
     */
    @Override
    public void left(TriggerFiredBundle fire) {
        this.executor.leave(
                fire.getJobDetail().getKey().getName(),
                fire.getScheduledFireTime().toInstant(),
                claimedAhead(fire.getJobDetail().getJobDataMap()));
    }

    @Override
    public boolean takesLeftFires() {
        return true;
    }

    private static Fire fire(TriggerFiredBundle bundle) {
        return new Fire(
                bundle.getJobDetail().getKey().getName(),
                bundle.getScheduledFireTime().toInstant());
    }

    /**
     * Stops running the fires that reach this node's workers from now on: Quartz's scheduler thread
     * hands out the fires it had acquired even after it was told to stand by or shut down, and
     * such a fire's outcome could no longer be recorded. Each is left to another node instead.
     */
    public void stopRunning() {
        this.stopping = true;
    }

    void dispatch(JobExecutionContext context) {
        String jobName = context.getJobDetail().getKey().getName();
        Attempt claimedAhead = claimedAhead(context.getJobDetail().getJobDataMap());
        if (this.stopping || TimedWorkerPool.givenUp()) {
            this.executor.leave(jobName, context.getScheduledFireTime().toInstant(), claimedAhead);
            return;
        }
        try {
            if (TimedWorkerPool.spilled()) {
                this.executor.waitForWorker(
                        jobName, context.getScheduledFireTime().toInstant(), claimedAhead);
            } else if (claimedAhead != null) {
                this.executor.run(claimedAhead);
            } else {
                this.executor.fire(jobName, context.getScheduledFireTime().toInstant());
            }
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
            Date next = new Date(this.clock.millis() + schedule.delay().toMillis() + EARLY_FIRE_PAD_MILLIS);
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
