package io.dsched.internal.store;

import java.time.Instant;
import java.util.List;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;

/**
 * The fires of sharded jobs as the queue sees them: how many of a job's attempts run on a node, and
 * the fires held behind an earlier one, whose shards were written with no due time while an earlier
 * fire of their job had an attempt not ended.
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
     * Lets a job's earliest held fire go, due now, once no attempt of an earlier fire of the job is
     * waiting or running (a fire of the job that ended by a dead letter has ended).
     * @param jobName the job
     * @param now the time they fall due
     * @return how many shards were let go
     */
    public int letGo(String jobName, Instant now) {
        MapSqlParameterSource job = new MapSqlParameterSource("job", jobName);
        List<Instant> held = this.rows.named.query(
                ("SELECT MIN(scheduled_at) AS earliest FROM dsched_execution"
                        + " WHERE status = 'SCHEDULED' AND due_at IS NULL AND job_name = :job"),
                job,
                (rs, row) -> this.rows.dialect.readInstant(rs, "earliest"));
        Instant earliest = held.isEmpty() ? null : held.get(0);
        if (earliest == null) {
            return 0;
        }
        job.addValue("fire", this.rows.dialect.bindable(earliest));
        Integer before = this.rows.named.queryForObject(
                ("SELECT COUNT(*) FROM dsched_execution"
                        + " WHERE status IN ('SCHEDULED', 'RETRY_SCHEDULED', 'RUNNING') AND job_name = :job"
                        + " AND scheduled_at < :fire"),
                job,
                Integer.class);
        if (before != null && before > 0) {
            return 0;
        }
        return this.rows.named.update(
                ("UPDATE dsched_execution SET due_at = :now, status_reason = NULL"
                        + " WHERE status = 'SCHEDULED' AND due_at IS NULL AND job_name = :job AND scheduled_at = :fire"),
                job.addValue("now", this.rows.dialect.bindable(now)));
    }
}
