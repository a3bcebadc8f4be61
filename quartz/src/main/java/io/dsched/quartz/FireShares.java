package io.dsched.quartz;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * A node's share of the fires due soon, for firing ahead: the fires due by a horizon (triggers
 * waiting, and fires other nodes fired ahead already) divided among the nodes checked in, less
 * what this node fired ahead already. Nodes look ahead at random moments; the first to look would
 * otherwise take a whole burst for its own workers while the others idle. Triggers due within the
 * lead that no node took yet are taken whole.
 */
final class FireShares {

    private final String sql;

    private final String schedulerName;

    FireShares(String prefix, String schedulerName) {
        this.schedulerName = schedulerName;
        String fired = prefix + "FIRED_TRIGGERS";
        String waiting = "SELECT COUNT(*) FROM " + prefix + "TRIGGERS"
                + " WHERE SCHED_NAME = ? AND TRIGGER_STATE = 'WAITING'"
                // as the acquisition: a trigger that ignores misfires is taken however late
                + " AND (MISFIRE_INSTR = -1 OR NEXT_FIRE_TIME >= ?) AND NEXT_FIRE_TIME <= ?";
        this.sql = "SELECT (" + waiting + "), (" + waiting + "),"
                + " (SELECT COUNT(*) FROM " + fired + " WHERE SCHED_NAME = ? AND SCHED_TIME > ? AND SCHED_TIME <= ?),"
                + " (SELECT COUNT(*) FROM " + fired
                + " WHERE SCHED_NAME = ? AND INSTANCE_NAME = ? AND SCHED_TIME > ? AND SCHED_TIME <= ?),"
                + " (SELECT COUNT(*) FROM " + prefix + "SCHEDULER_STATE WHERE SCHED_NAME = ?)";
    }

    /**
     * Returns how many more triggers a node may fire ahead.
     * @param conn a connection
     * @param node the node's instance id
     * @param now the time now
     * @param noEarlierThan the earliest fire time of a trigger that can be acquired (now less the
     *     misfire threshold): one missed for longer waits for the misfire handling, unless it
     *     ignores misfires
     * @param urgent the fire time up to which every waiting trigger is taken, share or not: the
     *     nodes that count may not all look ahead (one stopping, one whose clock is off, one whose
     *     workers are busy), and what they leave is taken before it is late
     * @param horizon the latest fire time looked at
     * @param most the most it may take (what its thread pool has room for)
     * @return the number, from 0 to {@code most}
     * @throws SQLException if the counts cannot be read
     */
    int of(Connection conn, String node, long now, long noEarlierThan, long urgent, long horizon, int most)
            throws SQLException {
        try (PreparedStatement counts = conn.prepareStatement(this.sql)) {
            int i = 1;
            counts.setString(i++, this.schedulerName);
            counts.setLong(i++, noEarlierThan);
            counts.setLong(i++, horizon);
            counts.setString(i++, this.schedulerName);
            counts.setLong(i++, noEarlierThan);
            counts.setLong(i++, urgent);
            counts.setString(i++, this.schedulerName);
            counts.setLong(i++, now);
            counts.setLong(i++, horizon);
            counts.setString(i++, this.schedulerName);
            counts.setString(i++, node);
            counts.setLong(i++, now);
            counts.setLong(i++, horizon);
            counts.setString(i, this.schedulerName);
            try (ResultSet row = counts.executeQuery()) {
                row.next();
                return share(row.getLong(1), row.getLong(2), row.getLong(3), row.getLong(4), row.getLong(5), most);
            }
        }
    }

    /**
     * The arithmetic of {@link #of}.
     * @param waiting triggers waiting, due by the horizon
     * @param urgent those of them due within the lead
     * @param firedAhead fires of every node fired ahead, due by the horizon
     * @param mine those of this node
     * @param nodes the nodes checked in (this one, once it has checked in)
     * @param most the most this node may take
     * @return how many more it takes
     */
    static int share(long waiting, long urgent, long firedAhead, long mine, long nodes, int most) {
        if (waiting == 0) {
            return 0;
        }
        long due = waiting + firedAhead;
        long perNode = (due + Math.max(1, nodes) - 1) / Math.max(1, nodes);
        // due within the lead and still waiting: no other node took them, this one does
        long share = Math.max(urgent, perNode - mine);
        return (int) Math.max(0, Math.min(most, Math.min(waiting, share)));
    }
}
