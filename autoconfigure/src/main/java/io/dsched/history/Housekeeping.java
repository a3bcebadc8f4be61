package io.dsched.history;

import io.dsched.definition.JobDefinition;
import io.dsched.definition.MisfirePolicy;
import io.dsched.definition.Schedule;
import io.dsched.retry.RetryPolicy;
import io.dsched.store.DatabasePlatform;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;

/**
 * Deletes finished attempts (with their captured logs) and closed dead letters older than the
 * retention, in small batches so that no statement holds many locks, then the stored trace
 * contexts of fires that have no attempt left, and the audit log's entries older than its own
 * retention. It runs as a scheduled job of its own, so on one node of the cluster at a time.
 */
public class Housekeeping {

    /** Name of the housekeeping job. */
    public static final String JOB_NAME = "dsched.housekeeping";

    private static final Logger logger = LoggerFactory.getLogger(Housekeeping.class);

    private static final String FINISHED =
            "'SUCCEEDED', 'FAILED', 'TIMED_OUT', 'SKIPPED', 'DEAD_LETTERED', 'CANCELLED'";

    private static final int MAX_BATCHES_PER_RUN = 1000;

    private static final String EXECUTION_LOGS = "DELETE FROM dsched_execution_log WHERE execution_id IN (:ids)";

    private final JdbcTemplate jdbc;

    private final NamedParameterJdbcTemplate named;

    private final DatabasePlatform platform;

    private final Duration retention;

    private final Duration auditRetention;

    private final int batchSize;

    private final Clock clock;

    /**
     * Creates the housekeeping.
     * @param dataSource dsched's DataSource
     * @param platform its database
     * @param retention how long history is kept
     * @param auditRetention how long the audit log's entries are kept
     * @param batchSize rows deleted per statement
     * @param clock the clock
     */
    public Housekeeping(
            DataSource dataSource,
            DatabasePlatform platform,
            Duration retention,
            Duration auditRetention,
            int batchSize,
            Clock clock) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.named = new NamedParameterJdbcTemplate(this.jdbc);
        this.platform = platform;
        this.retention = retention;
        this.auditRetention = auditRetention;
        this.batchSize = batchSize;
        this.clock = clock;
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
     * Deletes what is older than the retention.
     * @return how many attempts, dead letters, trace contexts and audit entries were deleted
     */
    public int purge() {
        Object cutoff = this.platform.bindable(this.clock.instant().minus(this.retention));
        int attempts = deleteInBatches(
                "dsched_execution", "status IN (" + FINISHED + ") AND started_at < ?", cutoff, EXECUTION_LOGS);
        int letters = deleteInBatches("dsched_dead_letter", "status <> 'OPEN' AND last_failed_at < ?", cutoff);
        int traces = deleteTraces(cutoff);
        Object auditCutoff = this.platform.bindable(this.clock.instant().minus(this.auditRetention));
        int audit = deleteInBatches("dsched_audit", "acted_at < ?", auditCutoff);
        if (attempts + letters + traces > 0) {
            logger.info(
                    "Deleted {} attempts, {} closed dead letters and {} trace contexts older than {}",
                    attempts,
                    letters,
                    traces,
                    this.retention);
        }
        if (audit > 0) {
            logger.info("Deleted {} audit entries older than {}", audit, this.auditRetention);
        }
        return attempts + letters + traces + audit;
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
            List<String> keys = this.jdbc.queryForList(select, String.class, cutoff);
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
            List<Long> ids = this.jdbc.queryForList(select, Long.class, cutoff);
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
}
