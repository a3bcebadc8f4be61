package io.dsched.internal.store;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The declared jobs of one cluster that were removed, and when, in database time
 * ({@code dsched_job_removal}): a node of an older deployment that still declares such a job does
 * not bring it back, and a node of a newer one does.
 *
 * <p>Callers hold the cluster's deployment lock (see {@code
 * io.dsched.internal.engine.DeploymentLock}) while they record or forget a removal as a node
 * synchronises its jobs; the housekeeping forgets old ones without it.
 */
public final class JobRemovalStore {

    private final JdbcTemplate jdbc;

    private final SqlDialect dialect;

    private final ClusterTables tables;

    private final String cluster;

    JobRemovalStore(JdbcTemplate jdbc, SqlDialect dialect, ClusterTables tables) {
        this.jdbc = jdbc;
        this.dialect = dialect;
        this.tables = tables;
        this.cluster = tables.clusterName();
    }

    /**
     * Records that a job was removed, now in database time.
     * @param job the job
     * @return {@code true} if this call recorded it, {@code false} if it was recorded before
     */
    public boolean record(String job) {
        try {
            return this.jdbc.update(
                            this.tables.sql(
                                    "INSERT INTO dsched_job_removal (cluster_name, job_name, removed_at) VALUES (?, ?, "
                                            + this.dialect.currentTimestampSql() + ")"),
                            this.cluster,
                            job)
                    > 0;
        } catch (DuplicateKeyException ex) {
            return false;
        }
    }

    /**
     * Returns when a job was removed.
     * @param job the job
     * @return the time, or empty if it is not removed
     */
    public Optional<Instant> removedAt(String job) {
        return this.jdbc
                .query(
                        this.tables.sql(
                                "SELECT removed_at FROM dsched_job_removal WHERE cluster_name = ? AND job_name = ?"),
                        (row, number) -> this.dialect.readInstant(row, "removed_at"),
                        this.cluster,
                        job)
                .stream()
                .findFirst();
    }

    /**
     * Returns the jobs removed within a while, in database time.
     * @param within how long ago
     * @return the names of the jobs
     */
    public List<String> removedWithin(Duration within) {
        List<String> removed = new ArrayList<>();
        this.jdbc.query(
                this.tables.sql("SELECT job_name, removed_at, " + this.dialect.currentTimestampSql()
                        + " AS db_now FROM dsched_job_removal WHERE cluster_name = ?"),
                (row) -> {
                    Instant now = this.dialect.readInstant(row, "db_now");
                    if (!this.dialect.readInstant(row, "removed_at").isBefore(now.minus(within))) {
                        removed.add(row.getString("job_name"));
                    }
                },
                this.cluster);
        return removed;
    }

    /**
     * Forgets a job's removal: a newer deployment declares it again.
     * @param job the job
     */
    public void forget(String job) {
        this.jdbc.update(
                this.tables.sql("DELETE FROM dsched_job_removal WHERE cluster_name = ? AND job_name = ?"),
                this.cluster,
                job);
    }

    /**
     * Forgets the removals older than an instant (this cluster's, as the housekeeping of
     * deployments does): a node of a deployment forgotten counts as new, and
     * brings a removed job back anyway.
     * @param before forget what was removed before this
     * @return how many rows were deleted
     */
    int forgetBefore(Instant before) {
        return this.jdbc.update(
                this.tables.sql("DELETE FROM dsched_job_removal WHERE removed_at < ?"), this.dialect.bindable(before));
    }
}
