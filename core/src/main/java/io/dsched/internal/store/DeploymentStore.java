package io.dsched.internal.store;

import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * What the nodes of one cluster declare, for the jobs that leave: in {@code dsched_deployment},
 * the set of jobs each deployment declares and when the cluster first saw it (in database time;
 * the newest is the one first seen last, and a node of an older deployment that starts again does
 * not make it the newest again); in {@code dsched_node_deployment}, the deployment each node
 * started with; and, through {@link #removals()}, the declared jobs removed and when.
 *
 * <p>Callers hold the cluster's deployment lock (see {@code io.dsched.internal.engine.DeploymentLock})
 * while they adopt a deployment or remove jobs, so that the two take turns.
 */
public class DeploymentStore {

    private final JdbcTemplate jdbc;

    private final ClusterTables tables;

    private final SqlDialect dialect;

    private final String cluster;

    private final JobRemovalStore removals;

    /**
     * Creates a store.
     * @param dataSource dsched's DataSource
     * @param tables the cluster's tables
     * @param platform its database
     */
    public DeploymentStore(DataSource dataSource, DatabasePlatform platform, ClusterTables tables) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.tables = tables;
        this.dialect = platform.dialect();
        this.cluster = tables.clusterName();
        this.removals = new JobRemovalStore(this.jdbc, this.dialect, tables);
    }

    /**
     * Returns the jobs removed, and when.
     * @return the removals of this cluster
     */
    public JobRemovalStore removals() {
        return this.removals;
    }

    /**
     * Records that a node of a deployment starts. Call under the deployment lock.
     * @param identity what tells this deployment from others: the names of the jobs it declares
     *     and, when the application has one, its build
     * @param jobNames the names of the jobs this node declares
     * @param nodeId this node
     * @param reapplySuperseded whether an older deployment becomes the newest again
     * @return the deployment as recorded
     */
    public Deployment adopt(String identity, Set<String> jobNames, String nodeId, boolean reapplySuperseded) {
        String hash = Deployment.fingerprint(identity);
        String now = this.dialect.currentTimestampSql();
        int known = this.jdbc.update(
                this.tables.sql("UPDATE dsched_deployment SET last_started_at = " + now
                        + " WHERE cluster_name = ? AND deployment_hash = ?"),
                this.cluster,
                hash);
        if (known == 0) {
            this.jdbc.update(
                    this.tables.sql(
                            "INSERT INTO dsched_deployment (cluster_name, deployment_hash, job_names, node_id, first_seen_at,"
                                    + " last_started_at) VALUES (?, ?, ?, ?, " + now + ", " + now + ")"),
                    this.cluster,
                    hash,
                    String.join("\n", new TreeSet<>(jobNames)),
                    nodeId);
        } else if (reapplySuperseded
                && !newest().map((d) -> d.hash().equals(hash)).orElse(false)) {
            // a rollback: the older deployment becomes the newest
            this.jdbc.update(
                    this.tables.sql("UPDATE dsched_deployment SET first_seen_at = " + now
                            + ", node_id = ? WHERE cluster_name = ? AND deployment_hash = ?"),
                    nodeId,
                    this.cluster,
                    hash);
        }
        int updated = this.jdbc.update(
                this.tables.sql("UPDATE dsched_node_deployment SET deployment_hash = ?, registered_at = " + now
                        + " WHERE cluster_name = ? AND node_id = ?"),
                hash,
                this.cluster,
                nodeId);
        if (updated == 0) {
            this.jdbc.update(
                    this.tables.sql(
                            "INSERT INTO dsched_node_deployment (cluster_name, node_id, deployment_hash, registered_at)"
                                    + " VALUES (?, ?, ?, " + now + ")"),
                    this.cluster,
                    nodeId,
                    hash);
        }
        return deployments(" AND deployment_hash = ?", hash).get(0);
    }

    /**
     * Returns the newest deployment.
     * @return the deployment first seen last, or empty if none was recorded
     */
    public Optional<Deployment> newest() {
        // two deployments first seen in the same instant: the order of their hashes decides, the
        // same on every node
        return deployments(" ORDER BY first_seen_at DESC, deployment_hash DESC LIMIT 1").stream()
                .findFirst();
    }

    private List<Deployment> deployments(String condition, Object... arguments) {
        Object[] all = new Object[arguments.length + 1];
        all[0] = this.cluster;
        System.arraycopy(arguments, 0, all, 1, arguments.length);
        return this.jdbc.query(
                this.tables.sql("SELECT deployment_hash, job_names, node_id, first_seen_at, "
                        + this.dialect.currentTimestampSql()
                        + " AS db_now FROM dsched_deployment WHERE cluster_name = ?" + condition),
                (row, number) -> new Deployment(
                        row.getString("deployment_hash"),
                        names(row.getString("job_names")),
                        row.getString("node_id"),
                        this.dialect.readInstant(row, "first_seen_at"),
                        this.dialect.readInstant(row, "db_now")),
                all);
    }

    /**
     * Returns the jobs that the nodes of this cluster seen within a while declare: by their last
     * heartbeat, or, for a node that has recorded none yet or that left, by when it started.
     * @param within how long ago a node may have been seen last
     * @return the names of the jobs
     */
    public Set<String> declaredByNodesSeenWithin(Duration within) {
        Set<String> declared = new HashSet<>();
        this.jdbc.query(
                this.tables.sql(
                        "SELECT d.job_names, nd.registered_at, n.last_seen, " + this.dialect.currentTimestampSql()
                                + " AS db_now FROM dsched_node_deployment nd"
                                + " JOIN dsched_deployment d ON d.cluster_name = nd.cluster_name"
                                + " AND d.deployment_hash = nd.deployment_hash"
                                + " LEFT JOIN dsched_node n ON n.node_id = nd.node_id WHERE nd.cluster_name = ?"),
                (row) -> {
                    Instant now = this.dialect.readInstant(row, "db_now");
                    Instant lastSeen = this.dialect.readInstant(row, "last_seen");
                    Instant registered = this.dialect.readInstant(row, "registered_at");
                    Instant since = now.minus(within);
                    // a node that has not recorded a heartbeat yet, or that left, by when it started
                    Instant seen = (lastSeen != null) ? lastSeen : registered;
                    if (!seen.isBefore(since)) {
                        declared.addAll(names(row.getString("job_names")));
                    }
                },
                this.cluster);
        return declared;
    }

    /**
     * Returns the nodes of this cluster whose deployment declares a job, live or not.
     * @param jobName the job
     * @return the nodes, by id
     */
    public Set<String> nodesDeclaring(String jobName) {
        Set<String> nodes = new HashSet<>();
        this.jdbc.query(
                this.tables.sql("SELECT nd.node_id, d.job_names FROM dsched_node_deployment nd"
                        + " JOIN dsched_deployment d ON d.cluster_name = nd.cluster_name"
                        + " AND d.deployment_hash = nd.deployment_hash WHERE nd.cluster_name = ?"),
                (row) -> {
                    if (names(row.getString("job_names")).contains(jobName)) {
                        nodes.add(row.getString("node_id"));
                    }
                },
                this.cluster);
        return nodes;
    }

    /**
     * Forgets the cluster's deployments no node started for a while (but never its newest, nor one
     * a node still records), which deployment nodes that left long ago started with, and removals
     * as old.
     * @param before forget what was last started before this
     * @return how many rows were deleted
     */
    public int forgetStartedBefore(Instant before) {
        Object cutoff = this.dialect.bindable(before);
        int nodes = this.jdbc.update(
                this.tables.sql("DELETE FROM dsched_node_deployment WHERE registered_at < ?"
                        + " AND node_id NOT IN (SELECT node_id FROM dsched_node)"),
                cutoff);
        int deployments = newest().map((newest) -> this.jdbc.update(
                        this.tables.sql("DELETE FROM dsched_deployment WHERE cluster_name = ? AND last_started_at < ?"
                                + " AND deployment_hash <> ? AND deployment_hash NOT IN"
                                + " (SELECT deployment_hash FROM dsched_node_deployment WHERE cluster_name = ?)"),
                        this.cluster,
                        cutoff,
                        newest.hash(),
                        this.cluster))
                .orElse(0);
        // a node of a deployment forgotten counts as new, and brings a removed job back anyway
        return nodes + deployments + this.removals.forgetBefore(before);
    }

    private static Set<String> names(String text) {
        return text.isEmpty() ? Set.of() : Set.of(text.split("\n"));
    }
}
