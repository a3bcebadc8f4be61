package io.dsched.internal.logs;

import io.dsched.internal.store.ClusterTables;
import io.dsched.internal.store.DatabasePlatform;
import io.dsched.internal.store.SqlDialect;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;

/** {@code dsched_execution_log}: the captured log of each attempt that logged something or failed. */
public class ExecutionLogs {

    private final JdbcTemplate jdbc;

    private final ClusterTables tables;

    private final SqlDialect dialect;

    /**
     * Creates the table's accessor.
     * @param dataSource dsched's DataSource
     * @param tables the cluster's tables
     * @param platform its database
     */
    public ExecutionLogs(DataSource dataSource, DatabasePlatform platform, ClusterTables tables) {
        this.jdbc = new JdbcTemplate(dataSource);
        this.tables = tables;
        this.dialect = platform.dialect();
    }

    /**
     * Returns the captured log of an attempt.
     * @param executionId the attempt's id in {@code dsched_execution}
     * @return its log, or empty when the attempt logged nothing and did not fail, is still running,
     *     or is older than the history's retention
     */
    public Optional<ExecutionLog> find(long executionId) {
        List<ExecutionLog> found = this.jdbc.query(
                this.tables.sql("SELECT execution_id, job_name, log_lines, stack_trace, truncated, created_at"
                        + " FROM dsched_execution_log WHERE execution_id = ?"),
                (rs, row) -> {
                    String text = rs.getString("log_lines");
                    return new ExecutionLog(
                            rs.getLong("execution_id"),
                            rs.getString("job_name"),
                            (text != null) ? text.lines().toList() : List.of(),
                            rs.getString("stack_trace"),
                            rs.getBoolean("truncated"),
                            this.dialect.readInstant(rs, "created_at"));
                },
                executionId);
        return found.stream().findFirst();
    }

    /**
     * Writes the captured log of an attempt.
     * @param log the log
     */
    public void save(ExecutionLog log) {
        String text = log.lines().isEmpty() ? null : String.join("\n", log.lines()) + "\n";
        this.jdbc.update(
                this.tables.sql("INSERT INTO dsched_execution_log"
                        + " (execution_id, job_name, log_lines, stack_trace, truncated, created_at)"
                        + " VALUES (?, ?, ?, ?, ?, ?)"),
                log.executionId(),
                log.jobName(),
                text,
                log.stackTrace(),
                log.truncated(),
                this.dialect.bindable(log.createdAt()));
    }
}
