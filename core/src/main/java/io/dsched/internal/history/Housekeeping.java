package io.dsched.internal.history;

import io.dsched.definition.MisfirePolicy;
import io.dsched.definition.Schedule;
import io.dsched.internal.definition.JobDefinition;
import io.dsched.internal.execution.NodeGroups;
import io.dsched.internal.retry.RetryPolicy;
import io.dsched.internal.store.ClusterTables;
import io.dsched.internal.store.DatabasePlatform;
import io.dsched.internal.store.DeploymentStore;
import io.dsched.internal.store.SqlDialect;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;

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

    private final SqlDialect dialect;

    private final Retention retention;

    private final Batches batches;

    private final AttemptPurges attempts;

    private final NodePurges nodes;

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
     * @param batchPause how long to rest after each full batch, so that the claims and outcomes
     *     that commit beside a long purge do not queue behind it
     * @param clock the clock
     */
    public Housekeeping(
            DataSource dataSource,
            DatabasePlatform platform,
            ClusterTables tables,
            Retention retention,
            int batchSize,
            Duration batchPause,
            Clock clock) {
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        this.dialect = platform.dialect();
        this.retention = retention;
        this.batches = new Batches(jdbc, tables, batchSize, batchPause);
        this.attempts = new AttemptPurges(this.batches);
        this.nodes = new NodePurges(jdbc, tables, this.dialect, this.batches);
        this.clock = clock;
        this.deployments = new DeploymentStore(dataSource, platform, tables);
        this.definitions = new DefinitionRetention(jdbc, platform, tables);
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
                NodeGroups.ANY,
                noRetry,
                null,
                null,
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
        int stale = this.attempts.cancelStale(
                before(this.retention.waiting()), () -> this.dialect.bindable(this.clock.instant()));
        int attempts = this.attempts.deleteFinished(cutoff);
        int logs = this.attempts.deleteOrphanLogs(cutoff);
        int letters = this.batches.deleteById("dsched_dead_letter", "status <> 'OPEN' AND last_failed_at < ?", cutoff);
        if (this.retention.openDeadLetters() != null) {
            letters += this.batches.deleteById(
                    "dsched_dead_letter",
                    "status = 'OPEN' AND last_failed_at < ?",
                    before(this.retention.openDeadLetters()));
        }
        int traces = this.attempts.deleteTraces(cutoff);
        int audit = this.batches.deleteById("dsched_audit", "acted_at < ?", before(this.retention.audit()));
        int keys = this.attempts.deleteExpiredKeys(this.dialect.bindable(this.clock.instant()));
        int requests = this.attempts.deleteCancelRequests(cutoff);
        int nodes = this.nodes.deleteNodesGone(cutoff);
        int clocks = this.nodes.deleteClocksGone(cutoff);
        // before the removals are forgotten: they tell which lock rows are of jobs gone
        int locks = (this.retention.locks() != null) ? this.nodes.deleteFreeLocks(this.retention.locks()) : 0;
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

    private Object before(Duration age) {
        return this.dialect.bindable(this.clock.instant().minus(age));
    }
}
