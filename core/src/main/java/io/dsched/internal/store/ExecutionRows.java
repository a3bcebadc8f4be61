package io.dsched.internal.store;

import io.dsched.execution.ExecutionOrigin;
import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.ExecutionStatus;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.BatchPreparedStatementSetter;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.support.GeneratedKeyHolder;

/**
 * The rows of {@code dsched_execution} over JDBC, as the inserts and claims write and read them:
 * the insert statement, its binding, the mapping of a row, and the templates on the cluster's
 * tables. What differs by database is the dialect's.
 */
final class ExecutionRows {

    static final String INSERT = """
            INSERT INTO dsched_execution (job_name, scheduled_at, attempt, idempotency_key, status, node_id,
                                          started_at, finished_at, error_class, error_message, status_reason,
                                          origin, due_at, payload, priority, limit_key)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """;

    static final int COLUMNS = 16;

    final JdbcTemplate jdbc;

    /** The same statements with named parameters; it keeps each one parsed once. */
    final NamedParameterJdbcTemplate named;

    final ClusterTables tables;

    final SqlDialect dialect;

    final ExecutionRepository repository;

    /** The read of due attempts in claim order: see {@link #findDue}. */
    private final String findDue;

    /** The read of due attempts recorded for a node, in claim order: see {@link #findDueOn}. */
    private final String findDueOn;

    ExecutionRows(JdbcTemplate jdbc, ClusterTables tables, SqlDialect dialect, ExecutionRepository repository) {
        this.jdbc = jdbc;
        this.named = tables.named(jdbc);
        this.tables = tables;
        this.dialect = dialect;
        this.repository = repository;
        this.findDue = PriorityBands.union("*", dialect.waiting("due_at <= :now AND job_name IN (:names)"));
        this.findDueOn = PriorityBands.union(
                "*",
                dialect.waiting("due_at <= :now AND job_name IN (:names)"
                        // a shard of a broadcast fire waits for its node; a run by hand, or a fire
                        // queued by a node that does not declare the job, for any node
                        + " AND (node_id = :nodeId OR idempotency_key NOT LIKE '%#%/%')"));
    }

    /** One JDBC batch of the insert that asks the driver for the ids it gave. */
    List<Long> insertReturningKeys(List<ExecutionRecord> batch) {
        GeneratedKeyHolder keys = new GeneratedKeyHolder();
        this.jdbc.batchUpdate(
                (connection) -> connection.prepareStatement(this.tables.sql(INSERT), new String[] {"id"}),
                binding(batch),
                keys);
        List<Long> ids = keys.getKeyList().stream()
                .map((key) -> ((Number) key.values().iterator().next()).longValue())
                .toList();
        if (ids.size() != batch.size()) {
            throw new IllegalStateException("Inserted " + batch.size() + " attempts but got " + ids.size() + " ids");
        }
        return ids;
    }

    /**
     * Finds waiting attempts that have fallen due, in the order they are claimed (the higher
     * priority first, then the oldest due), without locking them: one range of the queue index per
     * band of priorities ({@link PriorityBands}), and per waiting status where the index leads with it.
     * @param now the current time
     * @param limit how many at most
     * @param names the jobs and handlers to look at
     * @return the candidates; each still has to be claimed
     */
    List<ExecutionRecord> findDue(Instant now, int limit, Collection<String> names) {
        return this.named.query(this.findDue, dueParameters(now, limit, names), this::mapRow);
    }

    /**
     * Finds waiting attempts of a broadcast job that have fallen due, as {@link #findDue} does: its
     * shards written for a node, and those of no shard, which wait for any node.
     * @param now the current time
     * @param limit how many at most
     * @param name the job
     * @param nodeId the node
     * @return the candidates; each still has to be claimed
     */
    List<ExecutionRecord> findDueOn(Instant now, int limit, String name, String nodeId) {
        return this.named.query(
                this.findDueOn, dueParameters(now, limit, List.of(name)).addValue("nodeId", nodeId), this::mapRow);
    }

    MapSqlParameterSource dueParameters(Instant now, int limit, Collection<String> names) {
        return new MapSqlParameterSource()
                .addValue("now", this.dialect.bindable(now))
                .addValue("limit", limit)
                .addValue("names", names);
    }

    /** The ids of a batch in its order, from ids found by {@link #key idempotency key and attempt}. */
    static List<Long> inOrder(List<ExecutionRecord> batch, Map<String, Long> ids) {
        List<Long> ordered = new ArrayList<>(batch.size());
        for (ExecutionRecord row : batch) {
            Long id = ids.get(key(row.idempotencyKey(), row.attempt()));
            if (id == null) {
                throw new IllegalStateException("Inserted " + batch.size() + " attempts but found no id for attempt "
                        + row.attempt() + " of '" + row.idempotencyKey() + "'");
            }
            ordered.add(id);
        }
        return ordered;
    }

    static String key(String idempotencyKey, int attempt) {
        return idempotencyKey + "#" + attempt;
    }

    BatchPreparedStatementSetter binding(List<ExecutionRecord> batch) {
        return new BatchPreparedStatementSetter() {
            @Override
            public void setValues(PreparedStatement statement, int i) throws SQLException {
                bind(statement, batch.get(i));
            }

            @Override
            public int getBatchSize() {
                return batch.size();
            }
        };
    }

    void bind(PreparedStatement statement, ExecutionRecord row) throws SQLException {
        statement.setString(1, row.jobName());
        bindInstant(statement, 2, row.scheduledAt());
        statement.setInt(3, row.attempt());
        statement.setString(4, row.idempotencyKey());
        statement.setString(5, row.status().name());
        statement.setString(6, row.nodeId());
        bindInstant(statement, 7, row.startedAt());
        bindInstant(statement, 8, row.finishedAt());
        statement.setString(9, row.errorClass());
        statement.setString(10, row.errorMessage());
        statement.setString(11, row.statusReason());
        statement.setString(12, row.origin().name());
        bindInstant(statement, 13, row.dueAt());
        statement.setString(14, row.payload());
        statement.setInt(15, row.priority());
        statement.setString(16, row.limitKey());
    }

    private void bindInstant(PreparedStatement statement, int index, Instant instant) throws SQLException {
        if (instant == null) {
            statement.setNull(index, this.dialect.timestampType().getVendorTypeNumber());
        } else {
            statement.setObject(index, this.dialect.bindable(instant));
        }
    }

    /** Maps a row of {@code dsched_execution} by hand: the claim is the hottest read there is. */
    ExecutionRecord mapRow(ResultSet row, int number) throws SQLException {
        return new ExecutionRecord(
                row.getLong("id"),
                row.getString("job_name"),
                this.dialect.readInstant(row, "scheduled_at"),
                row.getInt("attempt"),
                row.getString("idempotency_key"),
                ExecutionStatus.valueOf(row.getString("status")),
                row.getString("node_id"),
                this.dialect.readInstant(row, "started_at"),
                this.dialect.readInstant(row, "finished_at"),
                row.getString("error_class"),
                row.getString("error_message"),
                row.getString("status_reason"),
                ExecutionOrigin.valueOf(row.getString("origin")),
                this.dialect.readInstant(row, "due_at"),
                row.getString("payload"),
                row.getInt("priority"),
                row.getString("limit_key"));
    }
}
