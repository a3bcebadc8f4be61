package io.dsched.quartz;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.quartz.TriggerKey;
import org.quartz.impl.jdbcjobstore.PostgreSQLDelegate;
import org.quartz.impl.jdbcjobstore.StdJDBCDelegate;

/**
 * Quartz driver delegates whose selection of due triggers skips the rows that other nodes hold,
 * for the {@link SkipLockedJobStore}. The selection is Quartz's own (waiting, due, not misfired
 * unless the trigger ignores misfires, earliest first, then by priority) with {@code LIMIT} and
 * {@code FOR UPDATE SKIP LOCKED}.
 */
public final class SkipLockedDelegates {

    private static final String SELECT_DUE = "SELECT TRIGGER_NAME, TRIGGER_GROUP FROM {0}TRIGGERS"
            + " WHERE SCHED_NAME = {1} AND TRIGGER_STATE = ? AND NEXT_FIRE_TIME <= ?"
            + " AND (MISFIRE_INSTR = -1 OR NEXT_FIRE_TIME >= ?)"
            + " ORDER BY NEXT_FIRE_TIME ASC, PRIORITY DESC LIMIT ? FOR UPDATE SKIP LOCKED";

    /** Quartz's state of a trigger waiting for its time (a literal would be eaten by Quartz's use of {@code MessageFormat}). */
    private static final String STATE_WAITING = "WAITING";

    private SkipLockedDelegates() {}

    private static List<TriggerKey> selectDue(
            Connection conn, String sql, long noLaterThan, long noEarlierThan, int maxCount) throws SQLException {
        try (PreparedStatement statement = conn.prepareStatement(sql)) {
            statement.setString(1, STATE_WAITING);
            statement.setLong(2, noLaterThan);
            statement.setLong(3, noEarlierThan);
            statement.setInt(4, Math.max(1, maxCount));
            List<TriggerKey> keys = new ArrayList<>();
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    keys.add(TriggerKey.triggerKey(rows.getString(1), rows.getString(2)));
                }
            }
            return keys;
        }
    }

    /** PostgreSQL's delegate, selecting due triggers with {@code SKIP LOCKED}. */
    public static class PostgreSQL extends PostgreSQLDelegate {

        @Override
        public List<TriggerKey> selectTriggerToAcquire(
                Connection conn, long noLaterThan, long noEarlierThan, int maxCount) throws SQLException {
            return selectDue(conn, rtp(SELECT_DUE), noLaterThan, noEarlierThan, maxCount);
        }
    }

    /** The standard delegate (MySQL, MariaDB), selecting due triggers with {@code SKIP LOCKED}. */
    public static class Standard extends StdJDBCDelegate {

        @Override
        public List<TriggerKey> selectTriggerToAcquire(
                Connection conn, long noLaterThan, long noEarlierThan, int maxCount) throws SQLException {
            return selectDue(conn, rtp(SELECT_DUE), noLaterThan, noEarlierThan, maxCount);
        }
    }
}
