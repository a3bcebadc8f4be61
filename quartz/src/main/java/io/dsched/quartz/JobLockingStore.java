package io.dsched.quartz;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.quartz.Calendar;
import org.quartz.JobDetail;
import org.quartz.JobKey;
import org.quartz.JobPersistenceException;
import org.quartz.TriggerKey;
import org.quartz.impl.jdbcjobstore.FiredTriggerRecord;
import org.quartz.impl.jdbcjobstore.SchedulerStateRecord;
import org.quartz.spi.OperableTrigger;

/**
 * The part of the {@link SkipLockedJobStore} that keeps Quartz's own operations (scheduling,
 * pausing, resuming, unscheduling, calendars, the recovery of failed nodes) in step with fires that
 * do not take Quartz's cluster-wide lock.
 *
 * <p>Those operations keep Quartz's lock, but a fire no longer waits for it, so each locks the rows
 * it will change before it reads them: the job's row first, then the triggers', as {@link RowLocks}
 * orders them. Storing a trigger of a job that disallows concurrent execution reads the job's fires
 * to decide whether the trigger starts blocked; a fire of the job records itself and blocks the
 * job's triggers in a transaction that holds the job's row; so the two cannot miss each other.
 */
abstract class JobLockingStore extends ClusterJobStore {

    /** Whether each job seen disallows concurrent execution (as its class on this node says). */
    private final Map<JobKey, Boolean> disallowing = new ConcurrentHashMap<>();

    /** The jobs whose rows the firing transaction on this thread holds. */
    private final ThreadLocal<Set<JobKey>> firing = new ThreadLocal<>();

    private volatile RowLocks locks;

    /**
     * Returns the row locks of this store's tables.
     * @return the locks
     */
    RowLocks locks() {
        RowLocks known = this.locks;
        if (known == null) {
            known = new RowLocks(getTablePrefix(), getInstanceName());
            this.locks = known;
        }
        return known;
    }

    /**
     * Locks the rows of jobs, in the order {@link RowLocks} gives them.
     * @param conn the transaction's connection
     * @param jobs the jobs
     * @throws JobPersistenceException if a lock cannot be had
     */
    void lockJobs(Connection conn, Collection<JobKey> jobs) throws JobPersistenceException {
        try {
            locks().lockJobs(conn, jobs);
        } catch (SQLException ex) {
            throw new JobPersistenceException("Couldn't lock jobs " + jobs + ": " + ex.getMessage(), ex);
        }
    }

    /**
     * Locks the rows of triggers, in the order {@link RowLocks} gives them.
     * @param conn the transaction's connection
     * @param triggers the triggers
     * @throws JobPersistenceException if a lock cannot be had
     */
    void lockTriggers(Connection conn, Collection<TriggerKey> triggers) throws JobPersistenceException {
        try {
            locks().lockTriggers(conn, triggers);
        } catch (SQLException ex) {
            throw new JobPersistenceException("Couldn't lock triggers " + triggers + ": " + ex.getMessage(), ex);
        }
    }

    /**
     * Whether a job disallows concurrent execution, as last read; read now if it was never read.
     * A job that cannot be read counts as disallowing, so that its row is locked.
     * @param conn the transaction's connection
     * @param job the job
     * @return whether it does
     */
    boolean disallowsConcurrency(Connection conn, JobKey job) {
        Boolean known = this.disallowing.get(job);
        if (known != null) {
            return known;
        }
        try {
            JobDetail detail = retrieveJob(conn, job);
            return detail == null || detail.isConcurrentExecutionDisallowed();
        } catch (JobPersistenceException ex) {
            return true;
        }
    }

    /**
     * Marks the jobs whose rows the firing transaction on this thread holds, or none.
     * @param jobs the jobs, or {@code null} once the transaction is done
     */
    void firing(Set<JobKey> jobs) {
        if (jobs == null) {
            this.firing.remove();
        } else {
            this.firing.set(jobs);
        }
    }

    /** Remembers whether the job disallows concurrent execution. */
    @Override
    protected JobDetail retrieveJob(Connection conn, JobKey key) throws JobPersistenceException {
        JobDetail job = super.retrieveJob(conn, key);
        if (job != null) {
            this.disallowing.put(key, job.isConcurrentExecutionDisallowed());
        } else {
            this.disallowing.remove(key);
        }
        return job;
    }

    /**
     * Locks the job's row before storing a trigger of a job that disallows concurrent execution,
     * unless the firing transaction holds it already.
     */
    @Override
    protected void storeTrigger(
            Connection conn,
            OperableTrigger newTrigger,
            JobDetail job,
            boolean replaceExisting,
            String state,
            boolean forceState,
            boolean recovering)
            throws JobPersistenceException {
        JobDetail owner = (job != null) ? job : retrieveJob(conn, newTrigger.getJobKey());
        if (owner != null && owner.isConcurrentExecutionDisallowed() && !recovering) {
            Set<JobKey> held = this.firing.get();
            if (held == null) {
                lockJobs(conn, List.of(owner.getKey()));
            } else if (!held.contains(owner.getKey())) {
                // its class disallows concurrency since it was acquired: its row comes before the trigger's
                throw new FireAgain("Job " + owner.getKey() + " disallows concurrent execution now;"
                        + " its trigger fires again with the job's row locked");
            }
        }
        super.storeTrigger(conn, newTrigger, owner, replaceExisting, state, forceState, recovering);
    }

    @Override
    protected boolean replaceTrigger(Connection conn, TriggerKey key, OperableTrigger newTrigger)
            throws JobPersistenceException {
        lockJobs(conn, List.of(newTrigger.getJobKey()));
        lockTriggers(conn, List.of(key));
        return super.replaceTrigger(conn, key, newTrigger);
    }

    @Override
    protected boolean removeTrigger(Connection conn, TriggerKey key) throws JobPersistenceException {
        lockJobAndTrigger(conn, key);
        return super.removeTrigger(conn, key);
    }

    @Override
    protected boolean removeJob(Connection conn, JobKey jobKey) throws JobPersistenceException {
        lockJobs(conn, List.of(jobKey));
        return super.removeJob(conn, jobKey);
    }

    @Override
    public void pauseTrigger(Connection conn, TriggerKey triggerKey) throws JobPersistenceException {
        lockJobAndTrigger(conn, triggerKey);
        super.pauseTrigger(conn, triggerKey);
    }

    @Override
    public void resumeTrigger(Connection conn, TriggerKey key) throws JobPersistenceException {
        lockJobAndTrigger(conn, key);
        super.resumeTrigger(conn, key);
    }

    /**
     * Locks the triggers that use the calendar, and their jobs, before Quartz reads them to compute
     * their next fire times with the new calendar: a fire meanwhile would otherwise be overwritten
     * by a next fire time computed from before it.
     */
    @Override
    protected void storeCalendar(
            Connection conn, String calName, Calendar calendar, boolean replaceExisting, boolean updateTriggers)
            throws JobPersistenceException {
        if (updateTriggers) {
            try {
                Map<TriggerKey, JobKey> triggers = locks().triggersOfCalendar(conn, calName);
                lockJobs(conn, triggers.values());
                lockTriggers(conn, triggers.keySet());
            } catch (SQLException ex) {
                throw new JobPersistenceException(
                        "Couldn't read the triggers of calendar " + calName + ": " + ex.getMessage(), ex);
            }
        }
        super.storeCalendar(conn, calName, calendar, replaceExisting, updateTriggers);
    }

    /** Locks the jobs of the failed nodes' fires before Quartz releases their blocked triggers. */
    @Override
    protected void clusterRecover(Connection conn, List<SchedulerStateRecord> failedInstances)
            throws JobPersistenceException {
        Set<JobKey> jobs = new TreeSet<>();
        try {
            for (SchedulerStateRecord failed : failedInstances) {
                for (FiredTriggerRecord fire :
                        getDelegate().selectInstancesFiredTriggerRecords(conn, failed.getSchedulerInstanceId())) {
                    if (fire.getJobKey() != null) {
                        jobs.add(fire.getJobKey());
                    }
                }
            }
        } catch (SQLException ex) {
            throw new JobPersistenceException("Couldn't read the fires of failed nodes: " + ex.getMessage(), ex);
        }
        lockJobs(conn, jobs);
        super.clusterRecover(conn, failedInstances);
    }

    /** Fails a firing transaction that must be done again, its triggers put back. */
    static final class FireAgain extends JobPersistenceException {

        private static final long serialVersionUID = 1L;

        FireAgain(String message) {
            super(message);
        }

        FireAgain(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private void lockJobAndTrigger(Connection conn, TriggerKey trigger) throws JobPersistenceException {
        try {
            JobKey job = locks().jobOf(conn, trigger);
            if (job != null) {
                lockJobs(conn, List.of(job));
            }
        } catch (SQLException ex) {
            throw new JobPersistenceException(
                    "Couldn't read the job of trigger " + trigger + ": " + ex.getMessage(), ex);
        }
        lockTriggers(conn, List.of(trigger));
    }
}
