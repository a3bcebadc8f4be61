package io.dsched.quartz;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import org.quartz.JobKey;
import org.quartz.impl.jdbcjobstore.Constants;

/**
 * Sets free the triggers of a job that disallows concurrent execution when a run of it ends, with
 * one statement where Quartz takes two: the blocked ones wait again, the blocked ones paused
 * meanwhile stay paused. The skip-locked store does this when it completes a recurring trigger's
 * fire of a job that does not persist its data, on the worker's thread, a round trip less per
 * fire there.
 */
final class BlockedTriggers {

    private final String sql;

    private final String schedulerName;

    BlockedTriggers(String prefix, String schedulerName) {
        this.sql = "UPDATE " + prefix + "TRIGGERS"
                + " SET TRIGGER_STATE = CASE TRIGGER_STATE WHEN ? THEN ? WHEN ? THEN ? ELSE TRIGGER_STATE END"
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
            statement.setString(3, Constants.STATE_PAUSED_BLOCKED);
            statement.setString(4, Constants.STATE_PAUSED);
            statement.setString(5, this.schedulerName);
            statement.setString(6, job.getName());
            statement.setString(7, job.getGroup());
            statement.setString(8, Constants.STATE_BLOCKED);
            statement.setString(9, Constants.STATE_PAUSED_BLOCKED);
            return statement.executeUpdate();
        }
    }
}
