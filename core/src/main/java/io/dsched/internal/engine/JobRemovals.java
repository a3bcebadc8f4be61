package io.dsched.internal.engine;

import io.dsched.internal.audit.AuditEntry;
import io.dsched.internal.audit.AuditLog;
import io.dsched.internal.store.Deployment;
import io.dsched.internal.store.DeploymentStore;
import io.dsched.internal.store.ExecutionRepository;
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
 * Removes the declared jobs that no node declares any more (removed, renamed or set to
 * {@code "-"}): a job in the store is removed once no node seen within the node timeout plus the
 * grace declares it, and the newest deployment, which has been the newest for the grace, does not
 * either. A rolling deployment in progress keeps it, as its old nodes still run; so does a node
 * that turned the job off alone, or a node of another role that never declared it.
 *
 * <p>The removal is recorded (so that a node of an older deployment that starts again leaves the
 * job out, while a newer deployment that declares it brings it back), its trigger is unscheduled,
 * its waiting attempts are cancelled, and the removal is audited as the system's. Every node
 * checks; one at a time removes, under the {@link DeploymentLock}, which a node adopting its
 * deployment at start-up holds as well.
 */
public final class JobRemovals implements SmartLifecycle {

    /** The actor of the audit entries of removals. */
    public static final String ACTOR = "dsched";

    /** The audited action. */
    public static final String ACTION = "job.remove";

    /** Why a removed job's waiting attempts were cancelled. */
    public static final String REASON = "job no longer declared";

    private static final Logger logger = LoggerFactory.getLogger(JobRemovals.class);

    private static final Duration LATE_FIRES = Duration.ofMinutes(1);

    private final Supplier<Scheduler> scheduler;

    private final DeploymentStore deployments;

    private final ExecutionRepository executions;

    private final AuditLog audit;

    private final DeploymentLock lock;

    private final Duration grace;

    private final Duration nodeTimeout;

    private final String nodeId;

    private final Clock clock;

    private ScheduledExecutorService timer;

    /**
     * Creates the removals.
     * @param scheduler this node's Quartz scheduler, once it exists
     * @param deployments the deployments and the jobs they declare
     * @param executions the execution history
     * @param audit where removals are recorded
     * @param lock the cluster's deployment lock
     * @param grace how long no node declares a job, and the newest deployment has been the
     *     newest, before the job is removed
     * @param nodeTimeout how long a node may be silent and still count as alive
     * @param nodeId this node
     * @param clock the clock
     */
    public JobRemovals(
            Supplier<Scheduler> scheduler,
            DeploymentStore deployments,
            ExecutionRepository executions,
            AuditLog audit,
            DeploymentLock lock,
            Duration grace,
            Duration nodeTimeout,
            String nodeId,
            Clock clock) {
        this.scheduler = scheduler;
        this.deployments = deployments;
        this.executions = executions;
        this.audit = audit;
        this.lock = lock;
        this.grace = grace;
        this.nodeTimeout = nodeTimeout;
        this.nodeId = nodeId;
        this.clock = clock;
    }

    /**
     * Removes what is due, unless another node holds the deployment lock.
     * @return the names of the jobs this call removed
     * @throws SchedulerException if the store cannot be read or written
     */
    public List<String> removeDue() throws SchedulerException {
        cancelLateAttempts();
        if (due().isEmpty()) {
            return List.of();
        }
        // decided again under the lock: another node may have removed them, or a node that
        // declares one of them started, meanwhile
        return this.lock
                .ifFree(() -> {
                    List<String> removed = new ArrayList<>();
                    for (String job : due()) {
                        if (remove(job)) {
                            removed.add(job);
                        }
                    }
                    return removed;
                })
                .orElse(List.of());
    }

    /**
     * The declared jobs in the store that no node seen within the grace declares, nor the newest
     * deployment, once that has been the newest for the grace.
     */
    private Set<String> due() throws SchedulerException {
        Set<String> stored = new TreeSet<>();
        for (JobKey key : this.scheduler.get().getJobKeys(GroupMatcher.jobGroupEquals(JobSynchronizer.GROUP))) {
            stored.add(key.getName());
        }
        if (stored.isEmpty()) {
            return stored;
        }
        Optional<Deployment> newest = this.deployments.newest();
        if (newest.isEmpty()
                || newest.get().since().plus(this.grace).isAfter(newest.get().now())) {
            return Set.of();
        }
        stored.removeAll(newest.get().jobs());
        if (!stored.isEmpty()) {
            // a node counts until it has been silent for the node timeout, and then for the grace
            stored.removeAll(this.deployments.declaredByNodesSeenWithin(this.nodeTimeout.plus(this.grace)));
        }
        return stored;
    }

    /**
     * Removes a job: records the removal first, so that a node of an older deployment starting
     * meanwhile leaves it out, deletes its trigger, then cancels its waiting attempts and audits;
     * a fire taken just before queues nothing that the next checks do not cancel.
     */
    private boolean remove(String job) throws SchedulerException {
        boolean first = this.deployments.removals().record(job);
        this.scheduler.get().deleteJob(JobKey.jobKey(job, JobSynchronizer.GROUP));
        Instant now = this.clock.instant();
        int cancelled = this.executions.cancelWaiting(job, now, REASON);
        if (first) {
            String detail = "no node seen within " + this.nodeTimeout.plus(this.grace)
                    + " declares it, nor the newest deployment; "
                    + cancelled + " waiting attempt(s) cancelled";
            this.audit.record(
                    new AuditEntry(null, now, ACTOR, ACTION, job, null, null, null, null, 200, detail, this.nodeId));
            logger.info("Removed job '{}': {}", job, detail);
        }
        return first;
    }

    /**
     * Cancels what a fire taken just before a removal queued for the removed job after its
     * waiting attempts were cancelled; a job removed a minute ago or more has no fire left.
     */
    private void cancelLateAttempts() {
        for (String job : this.deployments.removals().removedWithin(LATE_FIRES)) {
            this.executions.cancelWaiting(job, this.clock.instant(), REASON);
        }
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
