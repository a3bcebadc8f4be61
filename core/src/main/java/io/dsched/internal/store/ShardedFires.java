package io.dsched.internal.store;

import io.dsched.execution.ExecutionOrigin;
import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.ExecutionStatus;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;

/**
 * The fires of sharded jobs as the queue sees them: how many of a job's attempts run on a node, and
 * the fires held, whose shards were written with no due time while another attempt of their job had
 * not ended.
 */
public final class ShardedFires {

    private final ExecutionRows rows;

    ShardedFires(ExecutionRows rows) {
        this.rows = rows;
    }

    /**
     * Counts the attempts of a job running on a node.
     * @param jobName the job
     * @param nodeId the node
     * @return how many it runs
     */
    public int runningOn(String jobName, String nodeId) {
        Integer running = this.rows.named.queryForObject(
                ("SELECT COUNT(*) FROM dsched_execution"
                        + " WHERE status = 'RUNNING' AND job_name = :job AND node_id = :node"),
                new MapSqlParameterSource().addValue("job", jobName).addValue("node", nodeId),
                Integer.class);
        return (running != null) ? running : 0;
    }

    /**
     * Returns the key of a job's earliest due waiting attempt.
     * @param jobName the job
     * @param now the time
     * @return its key, or empty if none of the job's attempts is due
     */
    public Optional<String> dueShardKey(String jobName, Instant now) {
        return this.rows
                .named
                .queryForList(
                        "SELECT idempotency_key FROM dsched_execution WHERE job_name = :job"
                                + " AND status IN ('SCHEDULED', 'RETRY_SCHEDULED') AND due_at <= :now"
                                + " ORDER BY due_at LIMIT 1",
                        new MapSqlParameterSource("job", jobName).addValue("now", this.rows.dialect.bindable(now)),
                        String.class)
                .stream()
                .findFirst();
    }

    /**
     * Counts a job's shards running, or waiting and due, of whichever fires: what the nodes of a job
     * whose fires overlap share.
     * @param jobName the job
     * @param now the time
     * @return how many
     */
    public int activeShards(String jobName, Instant now) {
        Integer shards = this.rows.named.queryForObject(
                "SELECT COUNT(*) FROM dsched_execution WHERE job_name = :job AND idempotency_key LIKE '"
                        + SHARD_KEYS + "' AND (status = 'RUNNING'"
                        + " OR (status IN ('SCHEDULED', 'RETRY_SCHEDULED') AND due_at <= :now))",
                new MapSqlParameterSource("job", jobName).addValue("now", this.rows.dialect.bindable(now)),
                Integer.class);
        return (shards != null) ? shards : 0;
    }

    /**
     * Returns the scheduled times of a job's latest fires.
     * @param jobName the job
     * @param most how many at most
     * @return their times, the latest first
     */
    public List<Instant> latestFires(String jobName, int most) {
        return this.rows.named.query(
                "SELECT DISTINCT scheduled_at FROM dsched_execution WHERE job_name = :job AND idempotency_key LIKE '"
                        + SHARD_KEYS + "' ORDER BY scheduled_at DESC LIMIT :most",
                new MapSqlParameterSource("job", jobName).addValue("most", most),
                (rs, row) -> this.rows.dialect.readInstant(rs, "scheduled_at"));
    }

    /**
     * Returns the attempts of a job's shards at fires in a window, with what a fire as a whole is
     * read from alone: no payload, error or reason.
     * @param jobName the job
     * @param from the first fire, inclusive
     * @param to the last fire, inclusive
     * @return the attempts, in no order
     */
    public List<ExecutionRecord> shardAttempts(String jobName, Instant from, Instant to) {
        return this.rows.named.query(
                "SELECT id, scheduled_at, attempt, idempotency_key, status, node_id, started_at, finished_at,"
                        + " origin, due_at FROM dsched_execution WHERE job_name = :job"
                        + " AND scheduled_at >= :from AND scheduled_at <= :to AND idempotency_key LIKE '"
                        + SHARD_KEYS + "'",
                new MapSqlParameterSource("job", jobName)
                        .addValue("from", this.rows.dialect.bindable(from))
                        .addValue("to", this.rows.dialect.bindable(to)),
                (rs, row) -> new ExecutionRecord(
                        rs.getLong("id"),
                        jobName,
                        this.rows.dialect.readInstant(rs, "scheduled_at"),
                        rs.getInt("attempt"),
                        rs.getString("idempotency_key"),
                        ExecutionStatus.valueOf(rs.getString("status")),
                        rs.getString("node_id"),
                        this.rows.dialect.readInstant(rs, "started_at"),
                        this.rows.dialect.readInstant(rs, "finished_at"),
                        null,
                        null,
                        null,
                        ExecutionOrigin.valueOf(rs.getString("origin")),
                        this.rows.dialect.readInstant(rs, "due_at"),
                        null,
                        0,
                        null));
    }

    /** What the keys of shards look like to {@code LIKE}: {@code job@millis#index/count}. */
    private static final String SHARD_KEYS = "%#%/%";

    /**
     * Counts, by job, the open dead letters of shards (keys {@code job@millis#index/count}) and the
     * fires they belong to: the fires left partial until their shards are replayed or discarded.
     * @return the counts of each job that has any
     */
    public Map<String, Partial> partial() {
        Map<String, Partial> partial = new HashMap<>();
        this.rows.named.query(
                "SELECT job_name, COUNT(DISTINCT scheduled_at) AS fires, COUNT(*) AS shards FROM dsched_dead_letter"
                        + " WHERE status = 'OPEN' AND idempotency_key LIKE '" + SHARD_KEYS + "' GROUP BY job_name",
                Map.of(),
                (rs) -> {
                    partial.put(rs.getString("job_name"), new Partial(rs.getInt("fires"), rs.getInt("shards")));
                });
        return partial;
    }

    /**
     * A job's fires left partial by shards dead-lettered.
     *
     * @param fires the fires with a shard whose dead letter is open
     * @param shards the shards whose dead letters are open
     */
    public record Partial(int fires, int shards) {}

    /**
     * Returns the jobs that have fires held.
     * @return their names
     */
    public Set<String> held() {
        return new HashSet<>(this.rows.named.queryForList(
                "SELECT DISTINCT job_name FROM dsched_execution WHERE status = 'SCHEDULED' AND due_at IS NULL",
                Map.of(),
                String.class));
    }

    /**
     * Tells whether a fire's shards were written held, behind an earlier fire of their job: they are
     * announced as the queue lets them go.
     * @param jobName the job
     * @param scheduledAt the fire's time
     * @return {@code true} if a shard of the fire is held
     */
    public boolean heldFire(String jobName, Instant scheduledAt) {
        Integer held = this.rows.named.queryForObject(
                "SELECT COUNT(*) FROM dsched_execution WHERE job_name = :job AND scheduled_at >= :fire"
                        + " AND scheduled_at < :next AND status = 'SCHEDULED' AND due_at IS NULL",
                // the fire of its keys' millisecond, as the history keeps its time
                new MapSqlParameterSource("job", jobName)
                        .addValue("fire", this.rows.dialect.bindable(scheduledAt.truncatedTo(ChronoUnit.MILLIS)))
                        .addValue(
                                "next",
                                this.rows.dialect.bindable(scheduledAt
                                        .truncatedTo(ChronoUnit.MILLIS)
                                        .plusMillis(1))),
                Integer.class);
        return held != null && held > 0;
    }

    /**
     * Cancels a broadcast job's waiting attempts written for a node that does not run it (it left or
     * died, or it does not declare the job or serve its group), written before a time: each was
     * for its node alone. A waiting attempt of no shard (a run by hand, a fire queued by a node that
     * does not declare the job) waits for any node, and is left alone.
     * @param jobName the broadcast job
     * @param nodes the nodes that run it
     * @param writtenBefore only attempts written before this: a node that joined since may have
     *     been given one
     * @param now the time
     * @param reason why
     * @return how many attempts were cancelled
     */
    public int cancelWaitingNotOn(
            String jobName, Collection<String> nodes, Instant writtenBefore, Instant now, String reason) {
        MapSqlParameterSource query = new MapSqlParameterSource("job", jobName)
                .addValue("before", this.rows.dialect.bindable(writtenBefore))
                .addValue("nodes", nodes.isEmpty() ? List.of("") : nodes);
        // read first, then each cancelled by its id while it still waits: no range of the table locked
        List<Long> stranded = this.rows.named.queryForList(
                "SELECT id FROM dsched_execution WHERE job_name = :job AND status IN ('SCHEDULED', 'RETRY_SCHEDULED')"
                        + " AND idempotency_key LIKE '" + SHARD_KEYS + "' AND started_at < :before"
                        + " AND node_id NOT IN (:nodes)",
                query,
                Long.class);
        return stranded.isEmpty() ? 0 : cancelWaiting(stranded, now, reason);
    }

    /**
     * Cancels the waiting attempts of broadcast jobs written for a node that leaves.
     * @param jobNames the broadcast jobs
     * @param nodeId the node
     * @param now the time
     * @param reason why
     * @return how many attempts were cancelled
     */
    public int cancelWaitingOn(Collection<String> jobNames, String nodeId, Instant now, String reason) {
        if (jobNames.isEmpty()) {
            return 0;
        }
        List<Long> own = this.rows.named.queryForList(
                "SELECT id FROM dsched_execution WHERE job_name IN (:jobs) AND status IN ('SCHEDULED', 'RETRY_SCHEDULED')"
                        + " AND idempotency_key LIKE '" + SHARD_KEYS + "' AND node_id = :node",
                new MapSqlParameterSource("jobs", jobNames).addValue("node", nodeId),
                Long.class);
        return own.isEmpty() ? 0 : cancelWaiting(own, now, reason);
    }

    private int cancelWaiting(List<Long> ids, Instant now, String reason) {
        return this.rows.named.update(
                "UPDATE dsched_execution SET status = 'CANCELLED', finished_at = :now, status_reason = :reason"
                        + " WHERE id IN (:ids) AND status IN ('SCHEDULED', 'RETRY_SCHEDULED')",
                new MapSqlParameterSource("ids", ids)
                        .addValue("now", this.rows.dialect.bindable(now))
                        .addValue("reason", reason));
    }

    /**
     * Cancels a job's held fires: those of a job that no longer declares shards, whose new fires
     * are guarded by its lock, which held shards do not take.
     * @param jobName the job
     * @param now the time
     * @param reason why
     * @return how many attempts were cancelled
     */
    public int cancelHeld(String jobName, Instant now, String reason) {
        return this.rows.named.update(
                "UPDATE dsched_execution SET status = 'CANCELLED', finished_at = :now, status_reason = :reason"
                        + " WHERE status = 'SCHEDULED' AND due_at IS NULL AND job_name = :job",
                new MapSqlParameterSource("job", jobName)
                        .addValue("now", this.rows.dialect.bindable(now))
                        .addValue("reason", reason));
    }

    /**
     * Lets a job's earliest held fire go once no attempt of the job but held ones is waiting or
     * running (a fire of the job that ended by a dead letter has ended), due at the time the job
     * gives the fire.
     * @param jobName the job
     * @param whateverRuns let it go whatever else of the job waits or runs (a job whose fires may
     *     overlap, and that held fires before it did)
     * @param dueOf when a fire's shards fall due, from its scheduled time
     * @return how many shards were let go
     */
    public int letGo(String jobName, boolean whateverRuns, UnaryOperator<Instant> dueOf) {
        MapSqlParameterSource job = new MapSqlParameterSource("job", jobName);
        List<Instant> held = this.rows.named.query(
                "SELECT MIN(scheduled_at) AS earliest FROM dsched_execution"
                        + " WHERE status = 'SCHEDULED' AND due_at IS NULL AND job_name = :job",
                job,
                (rs, row) -> this.rows.dialect.readInstant(rs, "earliest"));
        Instant earliest = held.isEmpty() ? null : held.get(0);
        if (earliest == null) {
            return 0;
        }
        Integer unfinished = this.rows.named.queryForObject(
                "SELECT COUNT(*) FROM dsched_execution WHERE job_name = :job"
                        + " AND (status IN ('RETRY_SCHEDULED', 'RUNNING') OR (status = 'SCHEDULED' AND due_at IS NOT NULL))",
                job,
                Integer.class);
        if (!whateverRuns && unfinished != null && unfinished > 0) {
            return 0;
        }
        return this.rows.named.update(
                "UPDATE dsched_execution SET due_at = :due, status_reason = NULL"
                        + " WHERE status = 'SCHEDULED' AND due_at IS NULL AND job_name = :job AND scheduled_at = :fire",
                job.addValue("fire", this.rows.dialect.bindable(earliest))
                        .addValue("due", this.rows.dialect.bindable(dueOf.apply(earliest))));
    }
}
