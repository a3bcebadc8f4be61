package io.dsched.internal.store;

import io.dsched.execution.ExecutionRecord;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Optional;
import org.springframework.jdbc.core.BatchPreparedStatementSetter;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The trace context a fire was submitted in, kept in {@code dsched_execution_trace} by the fire's
 * idempotency key, so that every attempt of the fire continues that trace.
 */
final class ExecutionTraces {

    /** Longest encoded carrier the table holds. */
    static final int MAX_CARRIER = 1000;

    private final JdbcTemplate jdbc;

    private final ClusterTables tables;

    private final SqlDialect dialect;

    private final String upsert;

    ExecutionTraces(JdbcTemplate jdbc, SqlDialect dialect, ClusterTables tables) {
        this.jdbc = jdbc;
        this.tables = tables;
        this.dialect = dialect;
        // a row left by an earlier fire with the same key, whose attempts housekeeping has just
        // deleted, is replaced rather than failing the submission
        this.upsert = dialect.traceUpsert();
    }

    /**
     * Stores the trace context of new fires, in the caller's transaction.
     * @param fires the first attempts of the fires, just inserted
     * @param carrier the encoded trace context
     */
    void save(List<ExecutionRecord> fires, String carrier) {
        this.jdbc.batchUpdate(this.tables.sql(this.upsert), new BatchPreparedStatementSetter() {
            @Override
            public void setValues(PreparedStatement statement, int i) throws SQLException {
                ExecutionRecord fire = fires.get(i);
                statement.setString(1, fire.idempotencyKey());
                statement.setString(2, carrier);
                statement.setObject(3, ExecutionTraces.this.dialect.bindable(fire.startedAt()));
            }

            @Override
            public int getBatchSize() {
                return fires.size();
            }
        });
    }

    /**
     * Finds the trace context of a fire.
     * @param idempotencyKey the fire's key
     * @return the encoded carrier, or empty if the fire was submitted outside a trace
     */
    Optional<String> find(String idempotencyKey) {
        return this.jdbc
                .queryForList(
                        this.tables.sql("SELECT carrier FROM dsched_execution_trace WHERE idempotency_key = ?"),
                        String.class,
                        idempotencyKey)
                .stream()
                .findFirst();
    }
}
