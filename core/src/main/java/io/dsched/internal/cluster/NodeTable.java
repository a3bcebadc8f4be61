package io.dsched.internal.cluster;

import io.dsched.internal.store.ClusterTables;
import io.dsched.internal.store.DatabasePlatform;
import io.dsched.internal.store.SqlDialect;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * {@code dsched_node}: which nodes there are and when each was last seen, in database time, so
 * that nodes whose clocks differ still agree on who is alive.
 */
public class NodeTable {

    private final JdbcTemplate jdbc;

    private final ClusterTables tables;

    private final SqlDialect dialect;

    /**
     * Creates the table's accessor.
     * @param dataSource dsched's DataSource
     * @param platform its database
     * @param tables the cluster's tables
     */
    public NodeTable(DataSource dataSource, DatabasePlatform platform, ClusterTables tables) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.tables = tables;
        this.dialect = platform.dialect();
    }

    /**
     * Records that a node is alive now.
     * @param nodeId the node
     * @return {@code true} if the node had no row, which it has now: it joined, or joined again
     *     after the others forgot it
     */
    public boolean heartbeat(String nodeId) {
        String now = this.dialect.currentTimestampSql();
        int updated = this.jdbc.update(
                this.tables.sql("UPDATE dsched_node SET last_seen = " + now + " WHERE node_id = ?"), nodeId);
        if (updated == 0) {
            this.jdbc.update(
                    this.tables.sql("INSERT INTO dsched_node (node_id, started_at, last_seen) VALUES (?, " + now + ", "
                            + now + ")"),
                    nodeId);
            return true;
        }
        return false;
    }

    /**
     * Records the node groups a node serves, in place of those recorded before.
     * @param nodeId the node
     * @param groups the groups, none for a node that runs no jobs
     */
    public void serve(String nodeId, Collection<String> groups) {
        this.jdbc.update(this.tables.sql("DELETE FROM dsched_node_group WHERE node_id = ?"), nodeId);
        String now = this.dialect.currentTimestampSql();
        for (String group : groups) {
            this.jdbc.update(
                    this.tables.sql("INSERT INTO dsched_node_group (node_id, group_name, registered_at) VALUES (?, ?, "
                            + now + ")"),
                    nodeId,
                    group);
        }
    }

    /**
     * Returns the node groups each node serves, as recorded.
     * @return the groups, by node
     */
    public Map<String, Set<String>> groups() {
        Map<String, Set<String>> groups = new TreeMap<>();
        this.jdbc.query(this.tables.sql("SELECT node_id, group_name FROM dsched_node_group"), (rs) -> {
            groups.computeIfAbsent(rs.getString("node_id"), (node) -> new TreeSet<>())
                    .add(rs.getString("group_name"));
        });
        return groups;
    }

    /**
     * Returns the database's time now.
     * @return the time
     */
    public Instant databaseNow() {
        return this.jdbc.queryForObject(
                this.tables.sql("SELECT " + this.dialect.currentTimestampSql() + " AS db_now"),
                (rs, row) -> this.dialect.readInstant(rs, "db_now"));
    }

    /**
     * Records how far a node's clock runs ahead of the database's, so that every node can show it.
     * @param nodeId the node
     * @param offset the offset, negative when the node's clock is behind
     */
    public void recordClockOffset(String nodeId, Duration offset) {
        String now = this.dialect.currentTimestampSql();
        long millis = offset.toMillis();
        int updated = this.jdbc.update(
                this.tables.sql(
                        "UPDATE dsched_node_clock SET offset_ms = ?, measured_at = " + now + " WHERE node_id = ?"),
                millis,
                nodeId);
        if (updated == 0) {
            this.jdbc.update(
                    this.tables.sql("INSERT INTO dsched_node_clock (node_id, offset_ms, measured_at) VALUES (?, ?, "
                            + now + ")"),
                    nodeId,
                    millis);
        }
    }

    /**
     * Returns every node with the time it was last seen, its clock's offset, and the database's
     * time now.
     * @return the nodes
     */
    public List<NodeSighting> sightings() {
        return this.jdbc.query(
                this.tables.sql("SELECT n.node_id, n.started_at, n.last_seen, c.offset_ms, "
                        + this.dialect.currentTimestampSql()
                        + " AS db_now FROM dsched_node n LEFT JOIN dsched_node_clock c ON c.node_id = n.node_id"),
                (rs, row) -> {
                    long offset = rs.getLong("offset_ms");
                    return new NodeSighting(
                            rs.getString("node_id"),
                            this.dialect.readInstant(rs, "started_at"),
                            this.dialect.readInstant(rs, "last_seen"),
                            this.dialect.readInstant(rs, "db_now"),
                            rs.wasNull() ? null : Duration.ofMillis(offset));
                });
    }

    /**
     * Forgets a node, provided it was not seen again since.
     * @param sighting the node as last read
     */
    public void forget(NodeSighting sighting) {
        int forgotten = this.jdbc.update(
                this.tables.sql("DELETE FROM dsched_node WHERE node_id = ? AND last_seen <= ?"),
                sighting.nodeId(),
                this.dialect.bindable(sighting.lastSeen()));
        if (forgotten > 0) {
            this.jdbc.update(this.tables.sql("DELETE FROM dsched_node_clock WHERE node_id = ?"), sighting.nodeId());
            // unless the node joined again meanwhile, and recorded its groups anew
            this.jdbc.update(
                    this.tables.sql("DELETE FROM dsched_node_group WHERE node_id = ?"
                            + " AND NOT EXISTS (SELECT 1 FROM dsched_node n WHERE n.node_id = ?)"),
                    sighting.nodeId(),
                    sighting.nodeId());
        }
    }

    /**
     * Releases the job locks held by nodes that are not alive, so that their jobs need not wait
     * for {@code lockAtMostFor} to pass.
     * @param liveNodes the nodes known to be alive
     * @return how many locks were released
     */
    public int releaseLocksNotHeldBy(Collection<String> liveNodes) {
        String now = this.dialect.lockClockSql();
        return this.tables
                .named(this.jdbc)
                .update(
                        "UPDATE dsched_lock SET lock_until = " + now + " WHERE lock_until > " + now
                                + " AND locked_by NOT IN (:live)",
                        Map.of("live", liveNodes));
    }

    /**
     * Forgets a node that leaves the cluster.
     * @param nodeId the node
     */
    public void remove(String nodeId) {
        this.jdbc.update(this.tables.sql("DELETE FROM dsched_node WHERE node_id = ?"), nodeId);
        this.jdbc.update(this.tables.sql("DELETE FROM dsched_node_clock WHERE node_id = ?"), nodeId);
        this.jdbc.update(this.tables.sql("DELETE FROM dsched_node_group WHERE node_id = ?"), nodeId);
    }
}
