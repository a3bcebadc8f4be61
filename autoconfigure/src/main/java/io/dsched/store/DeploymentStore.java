package io.dsched.store;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Records, in {@code dsched_deployment}, the set of jobs each deployment declares and when the
 * cluster first saw it, in database time. The newest deployment is the one first seen last: a
 * node of an older deployment that starts again does not make it the newest again, as its row
 * keeps the time it was first seen; {@code dsched.jobs.reapply-superseded} does, for a rollback.
 *
 * <p>Callers hold the cluster's deployment lock (see {@code io.dsched.engine.DeploymentLock}) while
 * they adopt a deployment or remove the jobs it dropped, so that two deployments starting at once
 * are seen one after the other and a removal never races a node that declares the job again.
 */
public class DeploymentStore {

    private final JdbcTemplate jdbc;

    private final DatabasePlatform platform;

    /**
     * Creates a store.
     * @param dataSource dsched's DataSource
     * @param platform its database
     */
    public DeploymentStore(DataSource dataSource, DatabasePlatform platform) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.platform = platform;
    }

    /**
     * Records that a node of a deployment starts, and returns whether that deployment is now the
     * newest. Call under the deployment lock.
     * @param identity what tells this deployment from others: the names of the jobs it declares
     *     and, when the application has one, its build
     * @param jobNames the names of the jobs this node declares
     * @param nodeId this node
     * @param reapplySuperseded whether an older deployment becomes the newest again
     * @return whether this node's deployment is the newest
     */
    public boolean adopt(String identity, Set<String> jobNames, String nodeId, boolean reapplySuperseded) {
        String hash = hash(identity);
        String now = this.platform.currentTimestampSql();
        int known = this.jdbc.update(
                "UPDATE dsched_deployment SET last_started_at = " + now + " WHERE deployment_hash = ?", hash);
        if (known == 0) {
            this.jdbc.update(
                    "INSERT INTO dsched_deployment (deployment_hash, job_names, node_id, first_seen_at,"
                            + " last_started_at) VALUES (?, ?, ?, " + now + ", " + now + ")",
                    hash,
                    String.join("\n", new TreeSet<>(jobNames)),
                    nodeId);
        } else if (reapplySuperseded
                && !newest().map((d) -> d.hash().equals(hash)).orElse(false)) {
            // a rollback: the older deployment becomes the newest, and its removals are due again
            this.jdbc.update(
                    "UPDATE dsched_deployment SET first_seen_at = " + now
                            + ", node_id = ?, removals_done_at = NULL WHERE deployment_hash = ?",
                    nodeId,
                    hash);
        }
        return newest().map((d) -> d.hash().equals(hash)).orElse(false);
    }

    /**
     * Returns the newest deployment.
     * @return the deployment first seen last, or empty if none was recorded
     */
    public Optional<Deployment> newest() {
        // two deployments first seen in the same instant: the order of their hashes decides, the
        // same on every node
        return this.jdbc
                .query(
                        "SELECT deployment_hash, job_names, node_id, first_seen_at, removals_done_at, "
                                + this.platform.currentTimestampSql() + " AS db_now FROM dsched_deployment"
                                + " ORDER BY first_seen_at DESC, deployment_hash DESC",
                        (row, number) -> new Deployment(
                                row.getString("deployment_hash"),
                                names(row.getString("job_names")),
                                row.getString("node_id"),
                                this.platform.readInstant(row, "first_seen_at"),
                                this.platform.readInstant(row, "removals_done_at") != null,
                                this.platform.readInstant(row, "db_now")))
                .stream()
                .findFirst();
    }

    /**
     * Returns the newest deployment if the jobs it no longer declares are still to be removed and
     * it has been the newest for the grace, in database time.
     * @param grace how long it must have been the newest
     * @return the deployment, or empty
     */
    public Optional<Deployment> dueForRemovals(Duration grace) {
        return newest().filter((newest) ->
                !newest.removalsDone() && !newest.since().plus(grace).isAfter(newest.now()));
    }

    /**
     * Records that the jobs a deployment no longer declares were removed.
     * @param hash the deployment
     */
    public void removalsDone(String hash) {
        this.jdbc.update(
                "UPDATE dsched_deployment SET removals_done_at = " + this.platform.currentTimestampSql()
                        + " WHERE deployment_hash = ?",
                hash);
    }

    /**
     * Forgets the deployments no node started for a while, but never the newest.
     * @param before forget those whose last node started before this
     * @return how many were forgotten
     */
    public int forgetStartedBefore(Instant before) {
        Optional<Deployment> newest = newest();
        if (newest.isEmpty()) {
            return 0;
        }
        return this.jdbc.update(
                "DELETE FROM dsched_deployment WHERE last_started_at < ? AND deployment_hash <> ?",
                this.platform.bindable(before),
                newest.get().hash());
    }

    private static Set<String> names(String text) {
        return text.isEmpty() ? Set.of() : Set.of(text.split("\n"));
    }

    /**
     * Returns the identity of a deployment.
     * @param jobNames the names of the jobs it declares
     * @param build its build, or {@code null} if the application has no build information
     * @return the identity
     */
    public static String identity(Set<String> jobNames, String build) {
        SortedSet<String> names = new TreeSet<>(jobNames);
        return String.join("\n", names) + "\n#build=" + (build != null ? build : "");
    }

    private static String hash(String identity) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(identity.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", ex);
        }
    }

    /**
     * A deployment: the jobs it declares.
     *
     * @param hash the fingerprint of its identity
     * @param jobs the names of the jobs it declares
     * @param nodeId the node that first started it
     * @param since when the cluster first saw it, in database time
     * @param removalsDone whether the jobs it no longer declares were removed
     * @param now the database's time when this was read
     */
    public record Deployment(
            String hash, Set<String> jobs, String nodeId, Instant since, boolean removalsDone, Instant now) {

        /**
         * Whether this deployment declares a job.
         * @param job the job's name
         * @return {@code true} if it does
         */
        public boolean declares(String job) {
            return this.jobs.contains(job);
        }
    }
}
