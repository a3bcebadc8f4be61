package io.dsched.quartz;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.quartz.JobKey;
import org.quartz.TriggerKey;
import org.quartz.impl.jdbcjobstore.PostgreSQLDelegate;
import org.quartz.impl.jdbcjobstore.StdJDBCDelegate;

/**
 * Quartz driver delegates whose selection of due triggers skips the rows that other nodes hold,
 * for the {@link SkipLockedJobStore}. The selection is Quartz's own (waiting, due, not misfired
 * unless the trigger ignores misfires, earliest first, then by priority) with {@code LIMIT} and
 * {@code FOR UPDATE SKIP LOCKED}.
 *
 * <p>Their selection of misfired triggers locks what it selects: Quartz's misfire handler holds
 * Quartz's cluster-wide lock, which the store's acquisition and firing do not take, so it would
 * otherwise read a trigger as waiting, meanwhile a node acquires and fires it, and then write the
 * misfire instruction's next fire time over the fire's, firing it again. It locks the rows of the
 * misfired triggers' jobs, then of the triggers, and keeps those still waiting and misfired: a
 * trigger that a node is acquiring is waited for and dropped, and one it holds is skipped by every
 * acquisition until the misfire is handled.
 */
public final class SkipLockedDelegates {

    private static final String SELECT_DUE = "SELECT TRIGGER_NAME, TRIGGER_GROUP FROM {0}TRIGGERS"
            + " WHERE SCHED_NAME = {1} AND TRIGGER_STATE = ? AND NEXT_FIRE_TIME <= ?"
            + " AND (MISFIRE_INSTR = -1 OR NEXT_FIRE_TIME >= ?)"
            + " ORDER BY NEXT_FIRE_TIME ASC, PRIORITY DESC LIMIT ? FOR UPDATE SKIP LOCKED";

    private static final String SELECT_MISFIRED = "SELECT TRIGGER_NAME, TRIGGER_GROUP, JOB_NAME, JOB_GROUP"
            + " FROM {0}TRIGGERS WHERE SCHED_NAME = {1} AND MISFIRE_INSTR <> -1 AND NEXT_FIRE_TIME < ?"
            + " AND TRIGGER_STATE = ? ORDER BY NEXT_FIRE_TIME ASC, PRIORITY DESC";

    private static final String LOCK_MISFIRED = "SELECT TRIGGER_STATE, NEXT_FIRE_TIME, MISFIRE_INSTR FROM {0}TRIGGERS"
            + " WHERE SCHED_NAME = {1} AND TRIGGER_NAME = ? AND TRIGGER_GROUP = ? FOR UPDATE";

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

    /**
     * Selects misfired triggers as Quartz does, then locks their jobs' rows and theirs and keeps
     * those still in the state and misfired.
     */
    private static boolean selectMisfired(
            Connection conn,
            RowLocks locks,
            String select,
            String lock,
            String state,
            long misfiredBefore,
            int count,
            List<TriggerKey> misfired)
            throws SQLException {
        Map<TriggerKey, JobKey> candidates = new LinkedHashMap<>();
        boolean more = false;
        try (PreparedStatement statement =
                conn.prepareStatement((count > 0) ? select + " LIMIT " + (count + 1) : select)) {
            statement.setLong(1, misfiredBefore);
            statement.setString(2, state);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    if (count > 0 && candidates.size() == count) {
                        more = true;
                        break;
                    }
                    candidates.put(
                            TriggerKey.triggerKey(rows.getString(1), rows.getString(2)),
                            JobKey.jobKey(rows.getString(3), rows.getString(4)));
                }
            }
        }
        if (candidates.isEmpty()) {
            return false;
        }
        locks.lockJobs(conn, candidates.values());
        // in the order a fire takes them; the reads below find the rows held already
        locks.lockTriggers(conn, candidates.keySet());
        List<TriggerKey> still = new ArrayList<>();
        try (PreparedStatement statement = conn.prepareStatement(lock)) {
            for (TriggerKey trigger : new TreeSet<>(candidates.keySet())) {
                statement.setString(1, trigger.getName());
                statement.setString(2, trigger.getGroup());
                try (ResultSet rows = statement.executeQuery()) {
                    if (rows.next()
                            && state.equals(rows.getString(1))
                            && rows.getLong(2) < misfiredBefore
                            && rows.getInt(3) != -1) {
                        still.add(trigger);
                    }
                }
            }
        }
        candidates.keySet().stream().filter(still::contains).forEach(misfired::add);
        return more;
    }

    /** PostgreSQL's delegate, selecting due triggers with {@code SKIP LOCKED}. */
    public static class PostgreSQL extends PostgreSQLDelegate {

        @Override
        public List<TriggerKey> selectTriggerToAcquire(
                Connection conn, long noLaterThan, long noEarlierThan, int maxCount) throws SQLException {
            return selectDue(conn, rtp(SELECT_DUE), noLaterThan, noEarlierThan, maxCount);
        }

        @Override
        public boolean hasMisfiredTriggersInState(
                Connection conn, String state, long ts, int count, List<TriggerKey> resultList) throws SQLException {
            return selectMisfired(
                    conn,
                    new RowLocks(this.tablePrefix, this.schedName),
                    rtp(SELECT_MISFIRED),
                    rtp(LOCK_MISFIRED),
                    state,
                    ts,
                    count,
                    resultList);
        }
    }

    /** The standard delegate (MySQL, MariaDB), selecting due triggers with {@code SKIP LOCKED}. */
    public static class Standard extends StdJDBCDelegate {

        @Override
        public List<TriggerKey> selectTriggerToAcquire(
                Connection conn, long noLaterThan, long noEarlierThan, int maxCount) throws SQLException {
            return selectDue(conn, rtp(SELECT_DUE), noLaterThan, noEarlierThan, maxCount);
        }

        @Override
        public boolean hasMisfiredTriggersInState(
                Connection conn, String state, long ts, int count, List<TriggerKey> resultList) throws SQLException {
            return selectMisfired(
                    conn,
                    new RowLocks(this.tablePrefix, this.schedName),
                    rtp(SELECT_MISFIRED),
                    rtp(LOCK_MISFIRED),
                    state,
                    ts,
                    count,
                    resultList);
        }
    }
}
