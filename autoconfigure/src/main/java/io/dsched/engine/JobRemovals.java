package io.dsched.engine;

import io.dsched.audit.AuditEntry;
import io.dsched.audit.AuditLog;
import io.dsched.store.DeploymentStore;
import io.dsched.store.DeploymentStore.Deployment;
import io.dsched.store.ExecutionRepository;
import io.dsched.store.JobDefinitionStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.impl.matchers.GroupMatcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Removes the declared jobs that the newest deployment no longer declares (removed, renamed or
 * set to {@code "-"}), once that deployment has been the newest for a grace, in database time.
 *
 * <p>For each such job, in this order: every definition of it is marked removed, so that a node
 * of an older deployment does not schedule it again; its trigger is unscheduled; its waiting
 * attempts are cancelled; the removal is audited as the system's. Only then is the deployment's
 * removal recorded as done, so a node that dies half-way leaves the rest to the next check, and
 * each step is harmless to repeat. Every node checks; one at a time removes, under the
 * {@link DeploymentLock}, which a node adopting its deployment at start-up also holds.
 */
public final class JobRemovals implements SmartLifecycle {

    /** The actor of the audit entries of removals. */
    public static final String ACTOR = "dsched";

    /** The audited action. */
    public static final String ACTION = "job.remove";

    /** Why a removed job's waiting attempts were cancelled. */
    public static final String REASON = "job no longer declared";

    private static final Logger logger = LoggerFactory.getLogger(JobRemovals.class);

    private final Supplier<Scheduler> scheduler;

    private final DeploymentStore deployments;

    private final JobDefinitionStore definitions;

    private final ExecutionRepository executions;

    private final AuditLog audit;

    private final DeploymentLock lock;

    private final Duration grace;

    private final String nodeId;

    private final Clock clock;

    private ScheduledExecutorService timer;

    /**
     * Creates the removals.
     * @param scheduler this node's Quartz scheduler, once it exists
     * @param deployments the deployments and the jobs they declare
     * @param definitions the job definitions in force
     * @param executions the execution history
     * @param audit where removals are recorded
     * @param lock the cluster's deployment lock
     * @param grace how long a deployment is the newest before the jobs it dropped are removed
     * @param nodeId this node
     * @param clock the clock
     */
    public JobRemovals(
            Supplier<Scheduler> scheduler,
            DeploymentStore deployments,
            JobDefinitionStore definitions,
            ExecutionRepository executions,
            AuditLog audit,
            DeploymentLock lock,
            Duration grace,
            String nodeId,
            Clock clock) {
        this.scheduler = scheduler;
        this.deployments = deployments;
        this.definitions = definitions;
        this.executions = executions;
        this.audit = audit;
        this.lock = lock;
        this.grace = grace;
        this.nodeId = nodeId;
        this.clock = clock;
    }

    /**
     * Removes what is due, unless another node holds the deployment lock.
     * @return the names of the jobs this call removed
     * @throws SchedulerException if the store cannot be read or written
     */
    public List<String> removeDue() throws SchedulerException {
        if (this.deployments.dueForRemovals(this.grace).isEmpty()) {
            return List.of();
        }
        // read again under the lock: another node may have removed them, or a node of a newer
        // deployment started, meanwhile
        return this.lock
                .ifFree(() -> {
                    Optional<Deployment> newest = this.deployments.dueForRemovals(this.grace);
                    return newest.isPresent() ? remove(newest.get()) : List.<String>of();
                })
                .orElse(List.of());
    }

    private List<String> remove(Deployment newest) throws SchedulerException {
        Scheduler quartz = this.scheduler.get();
        Set<String> declared = new TreeSet<>(this.definitions.namesNotRemoved());
        for (JobKey key : quartz.getJobKeys(GroupMatcher.jobGroupEquals(JobSynchronizer.GROUP))) {
            declared.add(key.getName());
        }
        List<String> removed = new ArrayList<>();
        for (String job : declared) {
            if (!newest.declares(job)) {
                remove(quartz, job, newest);
                removed.add(job);
            }
        }
        this.deployments.removalsDone(newest.hash());
        return removed;
    }

    private void remove(Scheduler quartz, String job, Deployment newest) throws SchedulerException {
        this.definitions.remove(job);
        quartz.deleteJob(JobKey.jobKey(job, JobSynchronizer.GROUP));
        Instant now = this.clock.instant();
        int cancelled = this.executions.cancelWaiting(job, now, REASON);
        String detail = "no longer declared by the newest deployment, first started on node " + newest.nodeId() + " at "
                + newest.since() + "; " + cancelled + " waiting attempt(s) cancelled";
        this.audit.record(
                new AuditEntry(null, now, ACTOR, ACTION, job, null, null, null, null, 200, detail, this.nodeId));
        logger.info("Removed job '{}': {}", job, detail);
    }

    /** Checks every half grace (between one and thirty seconds) whether removals are due. */
    @Override
    public synchronized void start() {
        long period = Math.max(1_000, Math.min(this.grace.toMillis() / 2, 30_000));
        this.timer = Executors.newSingleThreadScheduledExecutor((task) -> {
            Thread thread = new Thread(task, "dsched-job-removals");
            thread.setDaemon(true);
            return thread;
        });
        this.timer.scheduleWithFixedDelay(this::check, period, period, TimeUnit.MILLISECONDS);
    }

    private void check() {
        try {
            removeDue();
        } catch (SchedulerException | RuntimeException ex) {
            // tried again at the next check
            logger.warn("Could not remove the jobs the newest deployment no longer declares: {}", ex.toString());
        }
    }

    @Override
    public synchronized void stop() {
        if (this.timer != null) {
            this.timer.shutdownNow();
            this.timer = null;
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return this.timer != null;
    }

    @Override
    public int getPhase() {
        // once the engine has written this node's deployment and its jobs
        return DschedPhases.ENGINE + 1;
    }
}
