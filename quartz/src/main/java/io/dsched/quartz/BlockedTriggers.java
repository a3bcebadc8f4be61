package io.dsched.quartz;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import org.quartz.JobKey;
import org.quartz.impl.jdbcjobstore.Constants;

/**
 * Sets free the triggers of a job that disallows concurrent execution when a run of it ends, with
 * one statement where Quartz takes two: the blocked ones wait again, the blocked ones paused
 * meanwhile stay paused. The completion of every fire of such a job does this, on the worker's
 * thread, so a round trip less there is one less per fire.
 */
final class BlockedTriggers {

    private final String sql;

    private final String schedulerName;

    BlockedTriggers(String prefix, String schedulerName) {
        this.sql = "UPDATE " + prefix + "TRIGGERS"
                + " SET TRIGGER_STATE = CASE WHEN TRIGGER_STATE = ? THEN ? ELSE ? END"
                + " WHERE SCHED_NAME = ? AND JOB_NAME = ? AND JOB_GROUP = ? AND TRIGGER_STATE IN (?, ?)";
        this.schedulerName = schedulerName;
    }

    /**
     * Moves the job's blocked triggers to waiting and its paused blocked ones to paused.
     * @param conn the transaction's connection, which holds the job's row
     * @param job the job
     * @return the number of triggers set free
     * @throws SQLException if the update fails
     */
    int release(Connection conn, JobKey job) throws SQLException {
        try (PreparedStatement statement = conn.prepareStatement(this.sql)) {
            statement.setString(1, Constants.STATE_BLOCKED);
            statement.setString(2, Constants.STATE_WAITING);
            statement.setString(3, Constants.STATE_PAUSED);
            statement.setString(4, this.schedulerName);
            statement.setString(5, job.getName());
            statement.setString(6, job.getGroup());
            statement.setString(7, Constants.STATE_BLOCKED);
            statement.setString(8, Constants.STATE_PAUSED_BLOCKED);
            return statement.executeUpdate();
        }
    }
}
