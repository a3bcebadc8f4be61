package io.dsched.internal.history;

import io.dsched.definition.MisfirePolicy;
import io.dsched.definition.Schedule;
import io.dsched.internal.definition.JobDefinition;
import io.dsched.internal.retry.RetryPolicy;
import io.dsched.internal.store.ClusterTables;
import io.dsched.internal.store.DatabasePlatform;
import io.dsched.internal.store.DeploymentStore;
import io.dsched.internal.store.SqlDialect;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;

/**
 * Keeps every table dsched writes from growing without bound, each by its own retention: finished
 * attempts (with their captured logs; cancelled and skipped ones included) and closed dead letters,
 * after the history's retention; then the captured logs and stored trace contexts that have no
 * attempt left; attempts that waited past their due time longer than the waiting
 * retention, which no node is going to run, are cancelled (and later deleted with the history);
 * open dead letters after their own retention, when one is set; the audit log's entries after its
 * retention; callers' idempotency keys once their window closed; requests to stop attempts, once
 * their attempt has ended and the history's retention has passed; the rows of nodes not seen for
 * the history's retention (once no attempt runs on them: a dead node's running attempts are taken
 * over first), and their clock offsets; the record of a deployment that is not the newest, once its
 * last node started longer ago than the deployment retention, with the record of job definitions
 * that no deployment still recorded can run (see {@link DefinitionRetention}); and the rows of the
 * lock table of jobs removed from the cluster (see {@code JobRemovals}) that have been free for the
 * lock retention, when the jobs' locks are dsched's own (a job that comes back creates its row
 * again when it next locks). Other lock rows stay: the rows of jobs still declared, and any an
 * application's own ShedLock provider keeps in the table, which would not create a deleted row
 * again while its process runs. Runtime jobs stay until they are
 * deleted. Deletes go in small batches so that no statement holds many locks. It runs as a
 * scheduled job of its own, so on one node of the cluster at a time.
 */
public class Housekeeping {

    /** Name of the housekeeping job. */
    public static final String JOB_NAME = "dsched.housekeeping";

    /** Why an attempt that waited too long was cancelled. */
    public static final String STALE = "waited longer than dsched.history.waiting-retention for a node to run it";

    private static final Logger logger = LoggerFactory.getLogger(Housekeeping.class);

    private static final String FINISHED =
            "'SUCCEEDED', 'FAILED', 'TIMED_OUT', 'SKIPPED', 'DEAD_LETTERED', 'CANCELLED'";

    private static final String WAITING = "'SCHEDULED', 'RETRY_SCHEDULED'";

    private static final int MAX_BATCHES_PER_RUN = 1000;

    private static final String EXECUTION_LOGS = "DELETE FROM dsched_execution_log WHERE execution_id IN (:ids)";

    private final JdbcTemplate jdbc;

    private final ClusterTables tables;

    private final NamedParameterJdbcTemplate named;

    private final SqlDialect dialect;

    private final Retention retention;

    private final int batchSize;

    private final Clock clock;

    private final DeploymentStore deployments;

    private final DefinitionRetention definitions;

    /**
     * Creates the housekeeping.
     * @param dataSource dsched's DataSource
     * @param tables the cluster's tables
     * @param platform its database
     * @param retention how long each kind of row is kept
     * @param batchSize rows deleted per statement
     * @param clock the clock
     */
    public Housekeeping(
            DataSource dataSource,
            DatabasePlatform platform,
            ClusterTables tables,
            Retention retention,
            int batchSize,
            Clock clock) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.tables = tables;
        this.named = tables.named(this.jdbc);
        this.dialect = platform.dialect();
        this.retention = retention;
        this.batchSize = batchSize;
        this.clock = clock;
        this.deployments = new DeploymentStore(dataSource, platform, tables);
        this.definitions = new DefinitionRetention(this.jdbc, platform, tables);
    }

    /**
     * Returns the housekeeping job.
     * @param cron when it runs
     * @return the job's definition
     */
    public JobDefinition job(String cron) {
        RetryPolicy noRetry = new RetryPolicy(1, Duration.ZERO, 1, Duration.ZERO, Duration.ZERO, List.of(), List.of());
        return new JobDefinition(
                JOB_NAME,
                new Schedule.Cron(cron, ZoneOffset.UTC),
                MisfirePolicy.SKIP,
                noRetry,
                null,
                null,
                null,
                "dsched housekeeping",
                (context) -> purge());
    }

    /**
     * Deletes what is older than its retention, and cancels attempts that waited too long.
     * @return how many rows were deleted or cancelled
     */
    public int purge() {
        Object cutoff = before(this.retention.history());
        int stale = cancelStale(before(this.retention.waiting()));
        // an attempt that never ran, cancelled or skipped, has started_at when it was created
        int attempts = deleteInBatches(
                "dsched_execution", "status IN (" + FINISHED + ") AND started_at < ?", cutoff, EXECUTION_LOGS);
        int logs = deleteOrphanLogs(cutoff);
        int letters = deleteInBatches("dsched_dead_letter", "status <> 'OPEN' AND last_failed_at < ?", cutoff);
        if (this.retention.openDeadLetters() != null) {
            letters += deleteInBatches(
                    "dsched_dead_letter",
                    "status = 'OPEN' AND last_failed_at < ?",
                    before(this.retention.openDeadLetters()));
        }
        int traces = deleteTraces(cutoff);
        int audit = deleteInBatches("dsched_audit", "acted_at < ?", before(this.retention.audit()));
        int keys = deleteExpiredKeys();
        int requests = deleteCancelRequests(cutoff);
        // a node that left without removing its row, once no attempt runs on it: membership takes
        // over a dead node's running attempts, and forgets it itself, while any node judges others
        int nodes = this.jdbc.update(
                this.tables.sql(
                        "DELETE FROM dsched_node WHERE last_seen < ? AND NOT EXISTS (SELECT 1 FROM dsched_execution e"
                                + " WHERE e.node_id = dsched_node.node_id AND e.status = 'RUNNING')"),
                cutoff);
        // a node's clock is forgotten with the node; one a failed start left behind, here
        int clocks = this.jdbc.update(
                this.tables.sql(
                        "DELETE FROM dsched_node_clock WHERE measured_at < ? AND node_id NOT IN (SELECT node_id FROM dsched_node)"),
                cutoff);
        // before the removals are forgotten: they tell which lock rows are of jobs gone
        int locks = (this.retention.locks() != null) ? deleteFreeLocks(this.retention.locks()) : 0;
        Instant deploymentCutoff = this.clock.instant().minus(this.retention.deployments());
        int deployments = this.deployments.forgetStartedBefore(deploymentCutoff);
        // after the deployments: what they no longer keep
        int definitions = this.definitions.forgetBefore(deploymentCutoff);
        int total = stale
                + attempts
                + logs
                + letters
                + traces
                + audit
                + keys
                + requests
                + nodes
                + clocks
                + deployments
                + definitions
                + locks;
        if (total > 0) {
            logger.info(
                    "Cancelled {} attempts that waited too long; deleted {} attempts, {} captured logs of attempts"
                            + " gone, {} dead letters, {} trace contexts and {} audit entries past their retention,"
                            + " {} idempotency keys past their window, {} requests to stop attempts that have ended,"
                            + " {} nodes gone and {} of their clocks, and {} locks long free; forgot {} deployments"
                            + " and {} job definitions",
                    stale,
                    attempts,
                    logs,
                    letters,
                    traces,
                    audit,
                    keys,
                    requests,
                    nodes,
                    clocks,
                    locks,
                    deployments,
                    definitions);
        }
        return total;
    }

    private int deleteOrphanLogs(Object cutoff) {
        // the logs of attempts deleted otherwise than here (the history is a public table)
        return deleteKeysInBatches(
                "SELECT l.execution_id FROM dsched_execution_log l WHERE l.created_at < ? AND NOT EXISTS"
                        + " (SELECT 1 FROM dsched_execution e WHERE e.id = l.execution_id)"
                        + " ORDER BY l.execution_id LIMIT " + this.batchSize,
                Long.class,
                cutoff,
                "DELETE FROM dsched_execution_log WHERE execution_id IN (:keys) AND created_at < :cutoff");
    }

    private int deleteFreeLocks(Duration retention) {
        // in the lock table's own form and clock (ShedLock's: UTC, or local time on H2), so read it
        // from the database rather than converting the node's time
        LocalDateTime now = this.jdbc.queryForObject(
                this.tables.sql("SELECT " + this.dialect.lockClockSql() + " AS lock_now"),
                (row, number) -> row.getObject("lock_now", LocalDateTime.class));
        Object cutoff = now.minus(retention);
        // the time again: a lock taken meanwhile is held, and kept
        return deleteKeysInBatches(
                "SELECT name FROM dsched_lock WHERE lock_until < ? AND name IN (SELECT job_name FROM dsched_job_removal)"
                        + " ORDER BY name LIMIT " + this.batchSize,
                String.class,
                cutoff,
                "DELETE FROM dsched_lock WHERE name IN (:keys) AND lock_until < :cutoff");
    }

    private <T> int deleteKeysInBatches(String select, Class<T> type, Object cutoff, String delete) {
        int total = 0;
        for (int batch = 0; batch < MAX_BATCHES_PER_RUN; batch++) {
            List<T> keys = this.jdbc.queryForList(this.tables.sql(select), type, cutoff);
            if (keys.isEmpty()) {
                break;
            }
            total += this.named.update(delete, Map.of("keys", keys, "cutoff", cutoff));
            if (keys.size() < this.batchSize) {
                break;
            }
        }
        return total;
    }

    private int deleteExpiredKeys() {
        Object now = this.dialect.bindable(this.clock.instant());
        String select = "SELECT idempotency_key FROM dsched_unique_key WHERE expires_at < ? LIMIT " + this.batchSize;
        String delete = "DELETE FROM dsched_unique_key WHERE idempotency_key IN (:keys) AND expires_at < :now";
        int total = 0;
        for (int batch = 0; batch < MAX_BATCHES_PER_RUN; batch++) {
            List<String> keys = this.jdbc.queryForList(this.tables.sql(select), String.class, now);
            if (keys.isEmpty()) {
                break;
            }
            total += this.named.update(delete, Map.of("keys", keys, "now", now));
            if (keys.size() < this.batchSize) {
                break;
            }
        }
        return total;
    }

    private int deleteCancelRequests(Object cutoff) {
        // a request is kept while its attempt runs, however old: the running node still has to stop it
        String select = "SELECT r.execution_id FROM dsched_cancel_request r WHERE r.requested_at < ?"
                + " AND NOT EXISTS (SELECT 1 FROM dsched_execution e WHERE e.id = r.execution_id"
                + " AND e.status = 'RUNNING') LIMIT " + this.batchSize;
        String delete = "DELETE FROM dsched_cancel_request WHERE execution_id IN (:ids)";
        int total = 0;
        for (int batch = 0; batch < MAX_BATCHES_PER_RUN; batch++) {
            List<Long> ids = this.jdbc.queryForList(this.tables.sql(select), Long.class, cutoff);
            if (ids.isEmpty()) {
                break;
            }
            total += this.named.update(delete, Map.of("ids", ids));
            if (ids.size() < this.batchSize) {
                break;
            }
        }
        return total;
    }

    private Object before(Duration age) {
        return this.dialect.bindable(this.clock.instant().minus(age));
    }

    private int cancelStale(Object cutoff) {
        String select = "SELECT id FROM dsched_execution WHERE status IN (" + WAITING + ") AND due_at < ?"
                + " ORDER BY id LIMIT " + this.batchSize;
        // the state again: a node may have claimed one meanwhile
        String cancel = "UPDATE dsched_execution SET status = 'CANCELLED', finished_at = :now, status_reason = :reason"
                + " WHERE id IN (:ids) AND status IN (" + WAITING + ")";
        int total = 0;
        for (int batch = 0; batch < MAX_BATCHES_PER_RUN; batch++) {
            List<Long> ids = this.jdbc.queryForList(this.tables.sql(select), Long.class, cutoff);
            if (ids.isEmpty()) {
                break;
            }
            total += this.named.update(
                    cancel, Map.of("ids", ids, "now", this.dialect.bindable(this.clock.instant()), "reason", STALE));
            if (ids.size() < this.batchSize) {
                break;
            }
        }
        return total;
    }

    private int deleteTraces(Object cutoff) {
        // only of fires with no attempt left: one still waiting or running keeps its trace however old
        String select = "SELECT t.idempotency_key FROM dsched_execution_trace t WHERE t.created_at < ?"
                + " AND NOT EXISTS (SELECT 1 FROM dsched_execution e WHERE e.idempotency_key = t.idempotency_key)"
                + " LIMIT " + this.batchSize;
        // the cutoff again: a fire submitted meanwhile under a key just freed keeps its new row
        String delete = "DELETE FROM dsched_execution_trace WHERE idempotency_key IN (:keys) AND created_at < :cutoff";
        int total = 0;
        for (int batch = 0; batch < MAX_BATCHES_PER_RUN; batch++) {
            List<String> keys = this.jdbc.queryForList(this.tables.sql(select), String.class, cutoff);
            if (keys.isEmpty()) {
                break;
            }
            total += this.named.update(delete, Map.of("keys", keys, "cutoff", cutoff));
            if (keys.size() < this.batchSize) {
                break;
            }
        }
        return total;
    }

    private int deleteInBatches(String table, String condition, Object cutoff, String... dependents) {
        // ids first, then a delete by id: one form that every database runs the same way
        // (MySQL takes no LIMIT in an IN subquery; H2's DELETE ... LIMIT stops early on an index)
        String select = "SELECT id FROM " + table + " WHERE " + condition + " ORDER BY id LIMIT " + this.batchSize;
        String delete = "DELETE FROM " + table + " WHERE id IN (:ids)";
        int total = 0;
        for (int batch = 0; batch < MAX_BATCHES_PER_RUN; batch++) {
            List<Long> ids = this.jdbc.queryForList(this.tables.sql(select), Long.class, cutoff);
            if (ids.isEmpty()) {
                break;
            }
            // the rows that belong to these first: if the run stops in between, the next one
            // finds the same ids again
            for (String dependent : dependents) {
                this.named.update(dependent, Map.of("ids", ids));
            }
            total += this.named.update(delete, Map.of("ids", ids));
            if (ids.size() < this.batchSize) {
                break;
            }
        }
        return total;
    }

    /**
     * How long each kind of row is kept.
     *
     * @param history finished attempts, closed dead letters, captured logs and trace contexts,
     *     requests to stop attempts, and the rows of nodes gone
     * @param waiting an attempt waiting past its due time for a node to run it, before it is cancelled
     * @param audit the audit log's entries
     * @param deployments the record of a deployment that is not the newest, after its last node
     *     started, and of job definitions no deployment kept can run
     * @param openDeadLetters open dead letters after their last failure, or {@code null} to keep them
     *     until they are replayed or discarded
     * @param locks rows of the lock table free for this long, or {@code null} to keep them (the
     *     jobs' locks are an application's own provider's, which may not create a missing row again)
     */
    public record Retention(
            Duration history,
            Duration waiting,
            Duration audit,
            Duration deployments,
            Duration openDeadLetters,
            Duration locks) {

        /**
         * Keeps open dead letters until someone acts, and lock rows for the history's retention.
         * @param history finished attempts and the rest of the history
         * @param waiting an attempt waiting past its due time, before it is cancelled
         * @param audit the audit log's entries
         * @param deployments the record of deployments and job definitions
         */
        public Retention(Duration history, Duration waiting, Duration audit, Duration deployments) {
            this(history, waiting, audit, deployments, null, history);
        }
    }
}
