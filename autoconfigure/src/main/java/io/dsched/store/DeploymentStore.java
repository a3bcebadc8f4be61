package io.dsched.store;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import javax.sql.DataSource;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Records, in {@code dsched_deployment}, the set of jobs each deployment declares, and which
 * deployment is the newest: the one whose set the cluster saw last for the first time, by the same
 * rule as {@link JobDefinitionStore} (a node of an older deployment restarting does not make it the
 * newest again; {@code dsched.jobs.reapply-superseded} does, for a rollback). A declared job the
 * newest deployment no longer declares is to be removed, once, after a grace.
 */
public class DeploymentStore {

    private static final String CURRENT = "CURRENT";

    private static final String SUPERSEDED = "SUPERSEDED";

    private final JdbcTemplate jdbc;

    private final TransactionTemplate transactions;

    private final DatabasePlatform platform;

    private final Clock clock;

    /**
     * Creates a store.
     * @param dataSource dsched's DataSource
     * @param platform its database
     * @param clock the clock
     */
    public DeploymentStore(DataSource dataSource, DatabasePlatform platform, Clock clock) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.transactions = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
        this.platform = platform;
        this.clock = clock;
    }

    /**
     * Records the jobs this node's deployment declares and returns whether it is the newest.
     * @param jobNames the names of the jobs this node declares
     * @param nodeId this node
     * @param reapplySuperseded whether an older deployment may become the newest again
     * @return whether this node's deployment is the newest
     */
    public boolean adopt(Set<String> jobNames, String nodeId, boolean reapplySuperseded) {
        SortedSet<String> names = new TreeSet<>(jobNames);
        String hash = hash(names);
        for (int attempt = 1; ; attempt++) {
            try {
                return Boolean.TRUE.equals(
                        this.transactions.execute((status) -> decide(names, hash, nodeId, reapplySuperseded)));
            } catch (DuplicateKeyException | PessimisticLockingFailureException ex) {
                // a node of the same deployment starting at the same moment: known by now
                if (attempt == 5) {
                    throw ex;
                }
            }
        }
    }

    private boolean decide(SortedSet<String> names, String hash, String nodeId, boolean reapplySuperseded) {
        List<String> statuses = this.jdbc.queryForList(
                "SELECT status FROM dsched_deployment WHERE manifest_hash = ?", String.class, hash);
        Object now = this.platform.bindable(this.clock.instant());
        if (statuses.isEmpty()) {
            supersedeOthers(hash);
            this.jdbc.update(
                    "INSERT INTO dsched_deployment (manifest_hash, job_names, status, node_id, created_at)"
                            + " VALUES (?, ?, ?, ?, ?)",
                    hash,
                    String.join("\n", names),
                    CURRENT,
                    nodeId,
                    now);
            return true;
        }
        if (CURRENT.equals(statuses.get(0))) {
            return true;
        }
        if (!reapplySuperseded) {
            return false;
        }
        supersedeOthers(hash);
        this.jdbc.update(
                "UPDATE dsched_deployment SET status = ?, node_id = ?, created_at = ?, removed_at = NULL,"
                        + " superseded_at = NULL"
                        + " WHERE manifest_hash = ?",
                CURRENT,
                nodeId,
                now,
                hash);
        return true;
    }

    private void supersedeOthers(String hash) {
        this.jdbc.update(
                "UPDATE dsched_deployment SET status = ?, superseded_at = ? WHERE status = ? AND manifest_hash <> ?",
                SUPERSEDED,
                this.platform.bindable(this.clock.instant()),
                CURRENT,
                hash);
    }

    /**
     * Returns the newest deployment if the jobs it no longer declares are still to be removed and
     * it became the newest before a cut-off.
     * @param before the cut-off: now less the grace
     * @return the deployment, or empty
     */
    public Optional<Deployment> dueForRemovals(Instant before) {
        return this.jdbc
                .query(
                        "SELECT manifest_hash, job_names, node_id, created_at, removed_at FROM dsched_deployment"
                                + " WHERE status = ? ORDER BY created_at DESC",
                        (row, number) -> new Deployment(
                                row.getString("manifest_hash"),
                                names(row.getString("job_names")),
                                row.getString("node_id"),
                                this.platform.readInstant(row, "created_at"),
                                this.platform.readInstant(row, "removed_at") != null),
                        CURRENT)
                .stream()
                // two deployments that both started at once: the later is the newest
                .findFirst()
                .filter((newest) -> !newest.removalsDone() && newest.since().isBefore(before));
    }

    /**
     * Records that the jobs a deployment no longer declares were removed.
     * @param hash the deployment
     */
    public void removalsDone(String hash) {
        this.jdbc.update(
                "UPDATE dsched_deployment SET removed_at = ? WHERE manifest_hash = ?",
                this.platform.bindable(this.clock.instant()),
                hash);
    }

    private static Set<String> names(String text) {
        return text.isEmpty() ? Set.of() : Set.of(text.split("\n"));
    }

    private static String hash(SortedSet<String> names) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256")
                    .digest(String.join("\n", names).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", ex);
        }
    }

    /**
     * A deployment: the jobs it declares.
     *
     * @param hash the fingerprint of its set of jobs
     * @param jobs the names of the jobs it declares
     * @param nodeId the node that first started it
     * @param since when it became the newest
     * @param removalsDone whether the jobs it no longer declares were removed
     */
    public record Deployment(String hash, Set<String> jobs, String nodeId, Instant since, boolean removalsDone) {}
}
