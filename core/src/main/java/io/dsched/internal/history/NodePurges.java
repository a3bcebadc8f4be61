package io.dsched.internal.history;

import io.dsched.internal.store.ClusterTables;
import io.dsched.internal.store.SqlDialect;
import java.time.Duration;
import java.time.LocalDateTime;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The purges of what the cluster's nodes leave behind: the rows of nodes gone and their clock
 * offsets, and the lock rows of jobs removed from the cluster once they have been free long enough.
 */
final class NodePurges {

    private final JdbcTemplate jdbc;

    private final ClusterTables tables;

    private final SqlDialect dialect;

    private final Batches batches;

    NodePurges(JdbcTemplate jdbc, ClusterTables tables, SqlDialect dialect, Batches batches) {
        this.jdbc = jdbc;
        this.tables = tables;
        this.dialect = dialect;
        this.batches = batches;
    }

    int deleteNodesGone(Object cutoff) {
        // a node that left without removing its row, once no attempt runs on it: membership takes
        // over a dead node's running attempts, and forgets it itself, while any node judges others
        return this.jdbc.update(
                this.tables.sql(
                        "DELETE FROM dsched_node WHERE last_seen < ? AND NOT EXISTS (SELECT 1 FROM dsched_execution e"
                                + " WHERE e.node_id = dsched_node.node_id AND e.status = 'RUNNING')"),
                cutoff);
    }

    int deleteClocksGone(Object cutoff) {
        // a node's clock and groups are forgotten with the node; those a failed start left behind, here
        return this.jdbc.update(
                        this.tables.sql("DELETE FROM dsched_node_clock WHERE measured_at < ?"
                                + " AND node_id NOT IN (SELECT node_id FROM dsched_node)"),
                        cutoff)
                + this.jdbc.update(
                        this.tables.sql("DELETE FROM dsched_node_group WHERE registered_at < ?"
                                + " AND node_id NOT IN (SELECT node_id FROM dsched_node)"),
                        cutoff);
    }

    int deleteFreeLocks(Duration retention) {
        // in the lock table's own form and clock (ShedLock's: UTC, or local time on H2), so read it
        // from the database rather than converting the node's time
        LocalDateTime now = this.jdbc.queryForObject(
                this.tables.sql("SELECT " + this.dialect.lockClockSql() + " AS lock_now"),
                (row, number) -> row.getObject("lock_now", LocalDateTime.class));
        Object cutoff = now.minus(retention);
        // the time again: a lock taken meanwhile is held, and kept
        return this.batches.deleteKeys(
                "SELECT name FROM dsched_lock WHERE lock_until < ? AND name IN (SELECT job_name FROM dsched_job_removal)"
                        + " ORDER BY name LIMIT " + this.batches.size(),
                String.class,
                cutoff,
                "DELETE FROM dsched_lock WHERE name IN (:keys) AND lock_until < :cutoff");
    }
}
