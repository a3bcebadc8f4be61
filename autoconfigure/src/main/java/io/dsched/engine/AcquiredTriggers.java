package io.dsched.engine;

import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Releases the triggers a node acquired but did not fire before it stopped. Quartz leaves them
 * acquired on a clustered shutdown, and no other node fires them until it has declared the
 * stopped node failed (its check-in interval plus a grace of 7.5 seconds): a rolling restart would
 * delay those fires by that much.
 */
final class AcquiredTriggers {

    private static final String PREFIX = QuartzSettings.TABLE_PREFIX;

    private final JdbcTemplate jdbc;

    private final String clusterName;

    private final String nodeId;

    AcquiredTriggers(DataSource dataSource, String clusterName, String nodeId) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.clusterName = clusterName;
        this.nodeId = nodeId;
    }

    /**
     * Puts this node's acquired triggers back to waiting; call it once the node's scheduler has
     * shut down.
     * @return how many triggers were released
     */
    int release() {
        int released = this.jdbc.update(
                "UPDATE " + PREFIX + "TRIGGERS SET TRIGGER_STATE = 'WAITING'"
                        + " WHERE SCHED_NAME = ? AND TRIGGER_STATE = 'ACQUIRED' AND EXISTS (SELECT 1 FROM " + PREFIX
                        + "FIRED_TRIGGERS F WHERE F.SCHED_NAME = " + PREFIX + "TRIGGERS.SCHED_NAME"
                        + " AND F.TRIGGER_NAME = " + PREFIX + "TRIGGERS.TRIGGER_NAME"
                        + " AND F.TRIGGER_GROUP = " + PREFIX + "TRIGGERS.TRIGGER_GROUP"
                        + " AND F.INSTANCE_NAME = ? AND F.STATE = 'ACQUIRED')",
                this.clusterName,
                this.nodeId);
        this.jdbc.update(
                "DELETE FROM " + PREFIX + "FIRED_TRIGGERS WHERE SCHED_NAME = ? AND INSTANCE_NAME = ?"
                        + " AND STATE = 'ACQUIRED'",
                this.clusterName,
                this.nodeId);
        return released;
    }
}
