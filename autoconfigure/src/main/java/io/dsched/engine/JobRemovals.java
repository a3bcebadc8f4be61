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
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.impl.matchers.GroupMatcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Removes the declared jobs that the newest deployment no longer declares (removed, renamed or set
 * to {@code "-"}), once the deployment has been the newest for a grace: their triggers are
 * unscheduled, their waiting attempts cancelled, their definitions marked replaced so that a node
 * of an older deployment does not bring them back, and each removal is audited as the system's.
 * Every node checks; one at a time does it, under a lock of the cluster's lock table.
 */
public final class JobRemovals implements SmartLifecycle {

    /** The actor of the audit entries of removals. */
    public static final String ACTOR = "dsched";

    /** Why a removed job's waiting attempts were cancelled. */
    public static final String REASON = "job no longer declared";

    private static final Logger logger = LoggerFactory.getLogger(JobRemovals.class);

    private static final String LOCK = "dsched.job-removals";

    private final Supplier<Scheduler> scheduler;

    private final DeploymentStore deployments;

    private final JobDefinitionStore definitions;

    private final ExecutionRepository executions;

    private final AuditLog audit;

    private final LockProvider locks;

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
     * @param locks the cluster's locks
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
            LockProvider locks,
            Duration grace,
            String nodeId,
            Clock clock) {
        this.scheduler = scheduler;
        this.deployments = deployments;
        this.definitions = definitions;
        this.executions = executions;
        this.audit = audit;
        this.locks = locks;
        this.grace = grace;
        this.nodeId = nodeId;
        this.clock = clock;
    }

    /**
     * Removes what is due, if another node is not doing it already.
     * @return the names of the jobs this call removed
     * @throws SchedulerException if the store cannot be read or written
     */
    public List<String> removeDue() throws SchedulerException {
        if (this.deployments.dueForRemovals(cutoff()).isEmpty()) {
            return List.of();
        }
        Instant now = this.clock.instant();
        Optional<SimpleLock> lock =
                this.locks.lock(new LockConfiguration(now, LOCK, Duration.ofMinutes(5), Duration.ZERO));
        if (lock.isEmpty()) {
            return List.of();
        }
        try {
            // read again under the lock: another node may have finished meanwhile
            Optional<Deployment> newest = this.deployments.dueForRemovals(cutoff());
            return newest.isPresent() ? remove(newest.get()) : List.of();
        } finally {
            lock.get().unlock();
        }
    }

    private List<String> remove(Deployment newest) throws SchedulerException {
        List<String> removed = new ArrayList<>();
        for (JobKey key : this.scheduler.get().getJobKeys(GroupMatcher.jobGroupEquals(JobSynchronizer.GROUP))) {
            String job = key.getName();
            if (newest.jobs().contains(job)) {
                continue;
            }
            this.scheduler.get().deleteJob(key);
            this.definitions.supersedeAll(job);
            Instant now = this.clock.instant();
            int cancelled = this.executions.cancelWaiting(job, now, REASON);
            String detail = "no longer declared by the newest deployment, started on node " + newest.nodeId() + " at "
                    + newest.since() + "; " + cancelled + " waiting attempt(s) cancelled";
            this.audit.record(new AuditEntry(
                    null, now, ACTOR, "job.remove", job, null, null, null, null, 200, detail, this.nodeId));
            logger.info("Removed job '{}': {}", job, detail);
            removed.add(job);
        }
        this.deployments.removalsDone(newest.hash());
        return removed;
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

    private Instant cutoff() {
        return this.clock.instant().minus(this.grace);
    }
}
