package io.dsched.internal.engine;

import io.dsched.engine.DschedQuartzJob;
import io.dsched.internal.definition.JobDefinition;
import io.dsched.internal.definition.JobRegistry;
import io.dsched.internal.store.Deployment;
import io.dsched.internal.store.DeploymentStore;
import io.dsched.internal.store.JobDefinitionStore;
import io.dsched.internal.store.JobDefinitionStore.Decision;
import java.time.Clock;
import java.time.Instant;
import java.util.Optional;
import java.util.Set;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.Trigger;
import org.quartz.TriggerKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the jobs this node declares into the shared Quartz store at start-up.
 *
 * <p>A job whose definition is unchanged keeps its stored trigger, and so its next fire time and
 * any pending misfire; a changed definition replaces the trigger; a definition that a newer
 * deployment already replaced is left alone (see {@link JobDefinitionStore}), and a job removed
 * before this node's deployment was first seen is not scheduled again (see {@link JobRemovals}).
 * It records the node's deployment first (see {@link DeploymentStore}), all under the
 * {@link DeploymentLock}.
 */
public final class JobSynchronizer {

    /** The Quartz group of jobs declared with {@code @DistributedScheduled}. */
    public static final String GROUP = "dsched";

    private static final Logger logger = LoggerFactory.getLogger(JobSynchronizer.class);

    private final Scheduler scheduler;

    private final JobRegistry registry;

    private final JobDefinitionStore definitions;

    private final Deployments deployments;

    private final String nodeId;

    private final boolean reapplySuperseded;

    private final Clock clock;

    private final StoreRepair runtimeJobs;

    /**
     * Creates a synchronizer.
     * @param scheduler this node's Quartz scheduler
     * @param registry the jobs this node declares
     * @param definitions the record of definitions in force
     * @param deployments the record of deployments, and its lock
     * @param nodeId this node
     * @param reapplySuperseded whether replaced definitions may be applied again
     * @param clock the clock
     * @param runtimeJobs repairs the triggers of jobs defined at run time
     */
    public JobSynchronizer(
            Scheduler scheduler,
            JobRegistry registry,
            JobDefinitionStore definitions,
            Deployments deployments,
            String nodeId,
            boolean reapplySuperseded,
            Clock clock,
            StoreRepair runtimeJobs) {
        this.scheduler = scheduler;
        this.registry = registry;
        this.definitions = definitions;
        this.deployments = deployments;
        this.nodeId = nodeId;
        this.reapplySuperseded = reapplySuperseded;
        this.clock = clock;
        this.runtimeJobs = runtimeJobs;
    }

    /**
     * Brings every declared job into the store.
     * @throws SchedulerException if the store cannot be written
     */
    public void synchronize() throws SchedulerException {
        this.deployments.lock().whileHolding(() -> {
            String identity = Deployment.identity(this.registry.names(), this.deployments.build());
            Deployment deployment = this.deployments
                    .store()
                    .adopt(identity, this.registry.names(), this.nodeId, this.reapplySuperseded);
            for (JobDefinition job : this.registry.all()) {
                if (!wasRemovedBefore(job, deployment)) {
                    synchronize(job);
                }
            }
            return null;
        });
        this.runtimeJobs.repair(this.scheduler);
    }

    /**
     * Whether a job was removed before this node's deployment was first seen: a node of an older
     * deployment leaves it out; a newer deployment, or a rollback, brings it back.
     */
    private boolean wasRemovedBefore(JobDefinition job, Deployment deployment) {
        Optional<Instant> removedAt = this.deployments.store().removals().removedAt(job.name());
        if (removedAt.isEmpty()) {
            return false;
        }
        if (this.reapplySuperseded || deployment.since().isAfter(removedAt.get())) {
            this.deployments.store().removals().forget(job.name());
            logger.info(
                    "Bringing back job '{}', removed at {}: this deployment declares it", job.name(), removedAt.get());
            return false;
        }
        logger.warn(
                "Not scheduling '{}': it was removed at {}, when no node declared it any more, and this node's"
                        + " deployment is older (set dsched.jobs.reapply-superseded=true to bring it back)",
                job.name(),
                removedAt.get());
        return true;
    }

    private void synchronize(JobDefinition job) throws SchedulerException {
        Decision decision = this.definitions.adopt(
                job.name(), job.fingerprint(), job.describe(), this.nodeId, this.reapplySuperseded);
        TriggerKey triggerKey = triggerKey(job.name());
        Trigger stored = this.scheduler.getTrigger(triggerKey);
        boolean inForce = stored != null && job.fingerprint().equals(fingerprint(stored));
        if (decision == Decision.APPLY || stored == null || (decision == Decision.KEEP && !inForce)) {
            // KEEP with another trigger stored: a node died between recording the definition
            // and writing its trigger, so the trigger is repaired here
            apply(job, stored != null);
            logger.info("Scheduled job '{}': {}", job.name(), job.describe());
        } else if (decision == Decision.SUPERSEDED) {
            logger.info(
                    "Keeping the stored schedule of '{}': a newer deployment replaced this node's {}"
                            + " (set dsched.jobs.reapply-superseded=true to roll back)",
                    job.name(),
                    job.describe());
        } else {
            if (this.scheduler.getTriggerState(triggerKey) == Trigger.TriggerState.ERROR) {
                logger.warn("Trigger of '{}' was in error; resetting it", job.name());
                this.scheduler.resetTriggerFromErrorState(triggerKey);
            }
            logger.debug("Job '{}' is unchanged: {}", job.name(), job.describe());
        }
    }

    private void apply(JobDefinition job, boolean replace) throws SchedulerException {
        JobDetail detail = jobDetail(job);
        Trigger trigger = Triggers.forJob(job, job.schedule(), this.clock);
        if (replace) {
            // rescheduleJob deletes and inserts the trigger: an update in place would leave the
            // rows of the old trigger type behind when a job changes between cron and interval
            this.scheduler.addJob(detail, true);
            this.scheduler.rescheduleJob(trigger.getKey(), trigger);
        } else {
            this.scheduler.scheduleJob(detail, Set.of(trigger), true);
        }
    }

    /**
     * Returns the key of a job's trigger.
     * @param jobName the job
     * @return the key
     */
    public static TriggerKey triggerKey(String jobName) {
        return TriggerKey.triggerKey(jobName, GROUP);
    }

    /**
     * Returns the fingerprint of the definition a stored trigger was made from.
     * @param trigger a stored trigger
     * @return the fingerprint, or {@code null}
     */
    public static String fingerprint(Trigger trigger) {
        return trigger.getJobDataMap().getString(Triggers.FINGERPRINT);
    }

    private static JobDetail jobDetail(JobDefinition job) {
        return JobBuilder.newJob(DschedQuartzJob.class)
                .withIdentity(job.name(), GROUP)
                .withDescription(job.source())
                .storeDurably()
                .build();
    }
}
