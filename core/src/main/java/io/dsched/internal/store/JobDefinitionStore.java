package io.dsched.internal.store;

import java.util.List;
import javax.sql.DataSource;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.dao.PessimisticLockingFailureException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Records, in {@code dsched_job_definition}, which annotation-declared definition of each job is
 * in force, so that nodes of two versions during a rolling deployment do not flip a job's
 * schedule back and forth.
 *
 * <p>The rule: a node applies its definition of a job when the cluster has never seen that
 * definition (a new deployment), and keeps the stored one when its own definition was already
 * replaced by another (an old node restarting during the rollout). A deliberate rollback sets
 * {@code dsched.jobs.reapply-superseded=true}.
 *
 * <p>Each row's {@code created_at} and {@code node_id} say when, in database time, and by which
 * node the definition last came into force: when it was first recorded, or last re-applied. With
 * the deployments, they tell housekeeping which replaced definitions no deployment still kept can
 * run.
 */
public class JobDefinitionStore {

    private static final String CURRENT = "CURRENT";

    private static final String SUPERSEDED = "SUPERSEDED";

    private final JdbcTemplate jdbc;

    private final ClusterTables tables;

    private final TransactionTemplate transactions;

    private final SqlDialect dialect;

    /**
     * Creates a store.
     * @param dataSource dsched's DataSource
     * @param tables the cluster's tables
     * @param platform its database
     */
    public JobDefinitionStore(DataSource dataSource, DatabasePlatform platform, ClusterTables tables) {
        this.dialect = platform.dialect();
        this.tables = tables;
        this.jdbc = new JdbcTemplate(dataSource);
        this.transactions = new TransactionTemplate(new DataSourceTransactionManager(dataSource));
    }

    /**
     * Decides whether this node's definition of a job is to be applied to the shared store, and
     * records the decision.
     * @param job the job's name
     * @param fingerprint this node's definition of it, as a hash that any change of the definition changes
     * @param schedule this node's schedule of it, as shown to operators
     * @param nodeId this node
     * @param reapplySuperseded whether a replaced definition may be applied again
     * @return the decision
     */
    public Decision adopt(String job, String fingerprint, String schedule, String nodeId, boolean reapplySuperseded) {
        for (int attempt = 1; ; attempt++) {
            try {
                return this.transactions.execute(
                        (status) -> decide(job, fingerprint, schedule, nodeId, reapplySuperseded));
            } catch (DuplicateKeyException | PessimisticLockingFailureException ex) {
                // another node starting at the same moment inserted the same definition, or
                // deadlocked with this one on MySQL's gap locks: try again, it is known by now
                if (attempt == 5) {
                    throw ex;
                }
            }
        }
    }

    private Decision decide(String job, String hash, String schedule, String nodeId, boolean reapplySuperseded) {
        List<String> statuses = this.jdbc.queryForList(
                this.tables.sql("SELECT status FROM dsched_job_definition WHERE job_name = ? AND definition_hash = ?"),
                String.class,
                job,
                hash);
        if (statuses.isEmpty()) {
            supersedeOthers(job, hash);
            this.jdbc.update(
                    this.tables.sql(
                            "INSERT INTO dsched_job_definition (job_name, definition_hash, schedule, status, node_id, created_at)"
                                    + " VALUES (?, ?, ?, ?, ?, " + this.dialect.currentTimestampSql() + ")"),
                    job,
                    hash,
                    schedule,
                    CURRENT,
                    nodeId);
            return Decision.APPLY;
        }
        if (CURRENT.equals(statuses.get(0))) {
            return Decision.KEEP;
        }
        if (!reapplySuperseded) {
            return Decision.SUPERSEDED;
        }
        supersedeOthers(job, hash);
        // in force again from now, by this node: what tells housekeeping whose deployment runs it
        this.jdbc.update(
                this.tables.sql("UPDATE dsched_job_definition SET status = ?, node_id = ?, created_at = "
                        + this.dialect.currentTimestampSql() + " WHERE job_name = ? AND definition_hash = ?"),
                CURRENT,
                nodeId,
                job,
                hash);
        return Decision.APPLY;
    }

    private void supersedeOthers(String jobName, String hash) {
        this.jdbc.update(
                this.tables.sql(
                        "UPDATE dsched_job_definition SET status = ? WHERE job_name = ? AND definition_hash <> ? AND status = ?"),
                SUPERSEDED,
                jobName,
                hash,
                CURRENT);
    }

    /** What a node does with its definition of a job. */
    public enum Decision {
        /** The definition is new (or a rollback was asked for): write it to the store. */
        APPLY,
        /** The definition is the one in force: leave the stored trigger as it is. */
        KEEP,
        /** A newer deployment replaced the definition: leave the stored trigger as it is. */
        SUPERSEDED
    }
}
