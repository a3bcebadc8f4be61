package io.dsched.quartz;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Collection;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.quartz.JobKey;
import org.quartz.TriggerKey;

/**
 * The row locks by which the {@link SkipLockedJobStore} orders its transactions without Quartz's
 * cluster-wide lock: a job's row in {@code JOB_DETAILS} stands for the job and all its triggers, a
 * trigger's row in {@code TRIGGERS} for the trigger. A transaction that takes several locks takes
 * jobs before triggers, each in key order, so that two such transactions never wait for each other
 * in a circle.
 */
final class RowLocks {

    private final String prefix;

    private final String schedulerName;

    RowLocks(String prefix, String schedulerName) {
        this.prefix = prefix;
        this.schedulerName = schedulerName;
    }

    /**
     * Locks the rows of jobs, in key order; a job that no longer exists has no row to lock.
     * @param conn the transaction's connection
     * @param jobs the jobs
     * @throws SQLException if a lock cannot be had
     */
    void lockJobs(Connection conn, Collection<JobKey> jobs) throws SQLException {
        if (jobs.isEmpty()) {
            return;
        }
        String sql = "SELECT JOB_NAME FROM " + this.prefix + "JOB_DETAILS"
                + " WHERE SCHED_NAME = ? AND JOB_NAME = ? AND JOB_GROUP = ? FOR UPDATE";
        try (PreparedStatement statement = conn.prepareStatement(sql)) {
            for (JobKey job : new TreeSet<>(jobs)) {
                statement.setString(1, this.schedulerName);
                statement.setString(2, job.getName());
                statement.setString(3, job.getGroup());
                try (ResultSet rows = statement.executeQuery()) {
                    rows.next();
                }
            }
        }
    }

    /**
     * Locks the rows of triggers, in key order; a trigger deleted meanwhile has no row to lock.
     * @param conn the transaction's connection
     * @param triggers the triggers
     * @throws SQLException if a lock cannot be had
     */
    void lockTriggers(Connection conn, Collection<TriggerKey> triggers) throws SQLException {
        String sql = "SELECT TRIGGER_STATE FROM " + this.prefix + "TRIGGERS"
                + " WHERE SCHED_NAME = ? AND TRIGGER_NAME = ? AND TRIGGER_GROUP = ? FOR UPDATE";
        try (PreparedStatement statement = conn.prepareStatement(sql)) {
            for (TriggerKey trigger : new TreeSet<>(triggers)) {
                statement.setString(1, this.schedulerName);
                statement.setString(2, trigger.getName());
                statement.setString(3, trigger.getGroup());
                try (ResultSet rows = statement.executeQuery()) {
                    rows.next();
                }
            }
        }
    }

    /**
     * Returns the job of a trigger, read without a lock.
     * @param conn the transaction's connection
     * @param trigger the trigger
     * @return its job, or {@code null} if the trigger does not exist
     * @throws SQLException if the read fails
     */
    JobKey jobOf(Connection conn, TriggerKey trigger) throws SQLException {
        String sql = "SELECT JOB_NAME, JOB_GROUP FROM " + this.prefix + "TRIGGERS"
                + " WHERE SCHED_NAME = ? AND TRIGGER_NAME = ? AND TRIGGER_GROUP = ?";
        try (PreparedStatement statement = conn.prepareStatement(sql)) {
            statement.setString(1, this.schedulerName);
            statement.setString(2, trigger.getName());
            statement.setString(3, trigger.getGroup());
            try (ResultSet rows = statement.executeQuery()) {
                return rows.next() ? JobKey.jobKey(rows.getString(1), rows.getString(2)) : null;
            }
        }
    }

    /**
     * Returns the triggers that use a calendar, with their jobs, read without a lock.
     * @param conn the transaction's connection
     * @param calendar the calendar's name
     * @return each trigger's job, by trigger
     * @throws SQLException if the read fails
     */
    Map<TriggerKey, JobKey> triggersOfCalendar(Connection conn, String calendar) throws SQLException {
        String sql = "SELECT TRIGGER_NAME, TRIGGER_GROUP, JOB_NAME, JOB_GROUP FROM " + this.prefix + "TRIGGERS"
                + " WHERE SCHED_NAME = ? AND CALENDAR_NAME = ?";
        Map<TriggerKey, JobKey> triggers = new TreeMap<>();
        try (PreparedStatement statement = conn.prepareStatement(sql)) {
            statement.setString(1, this.schedulerName);
            statement.setString(2, calendar);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    triggers.put(
                            TriggerKey.triggerKey(rows.getString(1), rows.getString(2)),
                            JobKey.jobKey(rows.getString(3), rows.getString(4)));
                }
            }
        }
        return triggers;
    }
}
