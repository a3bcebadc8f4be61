package io.dsched.quartz;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.quartz.JobKey;
import org.quartz.JobPersistenceException;
import org.quartz.SchedulerConfigException;
import org.quartz.TriggerKey;
import org.quartz.impl.jdbcjobstore.FiredTriggerRecord;
import org.quartz.impl.jdbcjobstore.JobStoreTX;
import org.quartz.impl.jdbcjobstore.SchedulerStateRecord;
import org.quartz.spi.ClassLoadHelper;
import org.quartz.spi.OperableTrigger;
import org.quartz.spi.SchedulerSignaler;

/**
 * Quartz's clustered JDBC store ({@code JobStoreTX}) with two additions any clustered Quartz
 * application can use, and a correction to how Quartz holds back the triggers of a job that
 * disallows concurrent execution ({@code @DisallowConcurrentExecution}) and has several triggers.
 *
 * <ul>
 *   <li>On shutdown it puts the triggers this node acquired but did not fire back to waiting.
 *       Quartz leaves them acquired, and no other node fires them until it has declared the
 *       stopped node failed (its check-in interval plus a grace of 7.5 seconds): a rolling restart
 *       would delay those fires by that much.
 *   <li>Given a {@link NodeStanding} ({@link StoreHooks}), it is governed by a membership kept
 *       outside Quartz where Quartz would trust the node's clock. A node whose clock is too far
 *       from the database's acquires no triggers and handles no misfires: Quartz compares fire
 *       times with the node's clock, so it would fire early or late and judge fires misfired that
 *       are not. And a node is failed, and its fires recovered, when the membership says it is
 *       dead, not when its check-in time, written with its own clock, looks old by this node's
 *       clock: stock Quartz declares a live node dead past about 12 s of skew and recovers its
 *       running fires. Quartz's own finding of this node's earlier process (on the first
 *       check-in) still counts.
 * </ul>
 *
 * <p>While a fire of such a job runs, Quartz keeps its other triggers {@code BLOCKED}. A node that
 * acquired one of them, and finds it blocked when it comes to fire it (another node fired a
 * sibling first), puts it back, and Quartz then sets it from {@code BLOCKED} to {@code WAITING}
 * while the sibling still runs: it fires at once, beside the sibling (Quartz's issue 674, triggers
 * of one job due together on several nodes). This store puts a trigger back to waiting only while
 * no other node holds it acquired, and unblocks the job's triggers only once no fire of the job
 * that disallows concurrency is recorded.
 *
 * <p>Without a standing it otherwise behaves as Quartz's store.
 */
public class ClusterJobStore extends JobStoreTX {

    private StoreHooks hooks = StoreHooks.NONE;

    /** Set once a shutdown has begun: the acquired triggers are put back at most once. */
    private final AtomicBoolean closing = new AtomicBoolean();

    @Override
    public void initialize(ClassLoadHelper loadHelper, SchedulerSignaler signaler) throws SchedulerConfigException {
        this.hooks = StoreHooks.takenBy(this);
        super.initialize(loadHelper, signaler);
    }

    private NodeStanding standing() {
        return this.hooks.standing();
    }

    /**
     * Returns what claims fires in the transaction that fires them.
     * @return the claims, or {@code null}
     */
    protected FireClaims claims() {
        return this.hooks.claims();
    }

    /**
     * Returns the node's fires due and not started, which writes that can wait leave room for.
     * @return the backlog
     */
    protected StartBacklog backlog() {
        return this.hooks.backlog();
    }
    /**
     * Whether this node may acquire fires now.
     * @return {@code false} while its clock is too far from the database's
     */
    protected boolean takesFires() {
        NodeStanding standing = standing();
        return standing == null || standing.takesFires();
    }

    @Override
    public List<OperableTrigger> acquireNextTriggers(long noLaterThan, int maxCount, long timeWindow)
            throws JobPersistenceException {
        if (!takesFires()) {
            return List.of();
        }
        return super.acquireNextTriggers(noLaterThan, maxCount, timeWindow);
    }

    @Override
    protected RecoverMisfiredJobsResult doRecoverMisfires() throws JobPersistenceException {
        if (!takesFires()) {
            return RecoverMisfiredJobsResult.NO_OP;
        }
        return super.doRecoverMisfires();
    }

    @Override
    protected List<SchedulerStateRecord> findFailedInstances(Connection conn) throws JobPersistenceException {
        List<SchedulerStateRecord> byQuartz = super.findFailedInstances(conn);
        NodeStanding standing = standing();
        if (standing == null) {
            return byQuartz;
        }
        Optional<Set<String>> live = standing.liveNodes();
        List<SchedulerStateRecord> failed = new ArrayList<>();
        for (SchedulerStateRecord record : byQuartz) {
            String node = record.getSchedulerInstanceId();
            // this node's own earlier process, found on the first check-in
            if (node.equals(getInstanceId()) || (live.isPresent() && !live.get().contains(node))) {
                failed.add(record);
            }
        }
        if (live.isPresent()) {
            try {
                for (SchedulerStateRecord record : getDelegate().selectSchedulerStateRecords(conn, null)) {
                    String node = record.getSchedulerInstanceId();
                    if (!node.equals(getInstanceId())
                            && !live.get().contains(node)
                            && failed.stream().noneMatch((known) -> known.getSchedulerInstanceId()
                                    .equals(node))) {
                        failed.add(record);
                    }
                }
            } catch (SQLException ex) {
                throw new JobPersistenceException("Couldn't read the nodes' check-ins: " + ex.getMessage(), ex);
            }
        }
        return failed;
    }

    /**
     * Puts back a trigger this node acquired but does not fire: to waiting only while no other
     * node holds it acquired (it may have been reset and acquired again meanwhile), and its job's
     * triggers unblocked only once no fire of the job that disallows concurrency is recorded.
     */
    @Override
    protected void releaseAcquiredTrigger(Connection conn, OperableTrigger trigger) throws JobPersistenceException {
        TriggerKey key = trigger.getKey();
        JobKey job = trigger.getJobKey();
        try {
            getDelegate().deleteFiredTrigger(conn, trigger.getFireInstanceId());
            boolean acquiredElsewhere =
                    getDelegate().selectFiredTriggerRecords(conn, key.getName(), key.getGroup()).stream()
                            .anyMatch((record) -> STATE_ACQUIRED.equals(record.getFireInstanceState()));
            if (!acquiredElsewhere) {
                getDelegate().updateTriggerStateFromOtherState(conn, key, STATE_WAITING, STATE_ACQUIRED);
            }
            if (!firesThatDisallowConcurrency(conn, job)) {
                getDelegate().updateTriggerStatesForJobFromOtherState(conn, job, STATE_WAITING, STATE_BLOCKED);
                getDelegate().updateTriggerStatesForJobFromOtherState(conn, job, STATE_PAUSED, STATE_PAUSED_BLOCKED);
            }
        } catch (SQLException ex) {
            throw new JobPersistenceException("Couldn't release acquired trigger " + key + ": " + ex.getMessage(), ex);
        }
    }

    private boolean firesThatDisallowConcurrency(Connection conn, JobKey job) throws JobPersistenceException {
        try {
            return getDelegate().selectFiredTriggerRecordsByJob(conn, job.getName(), job.getGroup()).stream()
                    .anyMatch(FiredTriggerRecord::isJobDisallowsConcurrentExecution);
        } catch (SQLException ex) {
            throw new JobPersistenceException("Couldn't read the fires of job " + job + ": " + ex.getMessage(), ex);
        }
    }

    /** Puts back the triggers this node acquired but did not fire, then shuts the store down. */
    @Override
    public void shutdown() {
        if (this.closing.compareAndSet(false, true)) {
            try {
                beforeShutdown();
            } catch (RuntimeException ex) {
                getLog().warn("Couldn't put back the fires this node fired ahead: " + ex.getMessage());
            }
            try {
                int released = executeInNonManagedTXLock(null, this::releaseAcquired, null);
                if (released > 0) {
                    getLog().debug("Released " + released + " trigger(s) this node had acquired but not fired");
                }
            } catch (JobPersistenceException | RuntimeException ex) {
                getLog().warn("Couldn't release the triggers this node acquired: " + ex.getMessage());
            }
        }
        super.shutdown();
    }

    /** What a store does first as it shuts down, before it puts back its acquired triggers. */
    protected void beforeShutdown() {}

    /**
     * Shuts the store down without a write first: for a stop that cannot wait for the database,
     * whose retried writes give up at their next try. Quartz's own shutdown, if it comes later,
     * writes nothing either.
     */
    void shutDownNow() {
        this.closing.set(true);
        super.shutdown();
    }

    private int releaseAcquired(Connection conn) throws JobPersistenceException {
        String triggers = getTablePrefix() + "TRIGGERS";
        String fired = getTablePrefix() + "FIRED_TRIGGERS";
        try (PreparedStatement release = conn.prepareStatement("UPDATE " + triggers
                        + " SET TRIGGER_STATE = ? WHERE SCHED_NAME = ? AND TRIGGER_STATE = ? AND EXISTS (SELECT 1 FROM "
                        + fired + " F WHERE F.SCHED_NAME = " + triggers + ".SCHED_NAME"
                        + " AND F.TRIGGER_NAME = " + triggers + ".TRIGGER_NAME"
                        + " AND F.TRIGGER_GROUP = " + triggers + ".TRIGGER_GROUP"
                        + " AND F.INSTANCE_NAME = ? AND F.STATE = ?)");
                PreparedStatement forget = conn.prepareStatement(
                        "DELETE FROM " + fired + " WHERE SCHED_NAME = ? AND INSTANCE_NAME = ? AND STATE = ?")) {
            release.setString(1, STATE_WAITING);
            release.setString(2, getInstanceName());
            release.setString(3, STATE_ACQUIRED);
            release.setString(4, getInstanceId());
            release.setString(5, STATE_ACQUIRED);
            int released = release.executeUpdate();
            forget.setString(1, getInstanceName());
            forget.setString(2, getInstanceId());
            forget.setString(3, STATE_ACQUIRED);
            forget.executeUpdate();
            return released;
        } catch (SQLException ex) {
            throw new JobPersistenceException("Couldn't release acquired triggers: " + ex.getMessage(), ex);
        }
    }
}
