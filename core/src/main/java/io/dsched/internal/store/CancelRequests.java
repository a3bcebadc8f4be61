package io.dsched.internal.store;

import io.dsched.execution.Cancellation;
import io.dsched.execution.ExecutionStatus;
import io.dsched.internal.text.BoundedText;
import java.time.Instant;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Cancels attempts: a waiting one at once, a running one by a request in {@code
 * dsched_cancel_request} that the node running it reads. Every decision is taken under the lock of
 * the attempt's row, so that it is fenced against a claim (which only takes a waiting row) and
 * against the write of a failed attempt's outcome (which looks for a request under the same lock).
 */
public class CancelRequests {

    /** Longest name of who asked, in characters. */
    static final int MAX_BY = 200;

    private static final String LOCK = "SELECT status FROM dsched_execution WHERE id = ? FOR UPDATE";

    private static final String CANCEL_WAITING = """
            UPDATE dsched_execution SET status = 'CANCELLED', finished_at = ?, status_reason = ?
             WHERE id = ? AND status IN ('SCHEDULED', 'RETRY_SCHEDULED')
            """;

    private static final String FIND = "SELECT requested_by FROM dsched_cancel_request WHERE execution_id = ?";

    private static final String INSERT =
            "INSERT INTO dsched_cancel_request (execution_id, requested_at, requested_by) VALUES (?, ?, ?)";

    private static final String REQUESTED =
            "SELECT execution_id, requested_by FROM dsched_cancel_request WHERE execution_id IN (:ids)";

    private final JdbcTemplate jdbc;

    private final ClusterTables tables;

    private final NamedParameterJdbcTemplate named;

    private final SqlDialect dialect;

    private final TransactionTemplate transactions;

    CancelRequests(JdbcTemplate jdbc, SqlDialect dialect, ClusterTables tables, TransactionTemplate transactions) {
        this.jdbc = jdbc;
        this.tables = tables;
        this.named = tables.named(jdbc);
        this.dialect = dialect;
        this.transactions = transactions;
    }

    /**
     * Cancels an attempt: one that waits is {@code CANCELLED} now, one that runs gets a request to
     * stop. Asking again changes nothing.
     * @param executionId the attempt
     * @param requestedBy who asks, named in the attempt's reason
     * @param now the current time
     * @return what the request did
     */
    public Cancellation cancel(long executionId, String requestedBy, Instant now) {
        String by = BoundedText.cut(requestedBy, MAX_BY);
        return this.transactions.execute((tx) -> {
            List<String> found = this.jdbc.queryForList(this.tables.sql(LOCK), String.class, executionId);
            if (found.isEmpty()) {
                return new Cancellation(null, null, Cancellation.Result.NOT_FOUND);
            }
            ExecutionStatus status = ExecutionStatus.valueOf(found.get(0));
            Cancellation.Result result =
                    switch (status) {
                        case SCHEDULED, RETRY_SCHEDULED -> {
                            status.checkMoveTo(ExecutionStatus.CANCELLED);
                            int updated = this.jdbc.update(
                                    this.tables.sql(CANCEL_WAITING),
                                    this.dialect.bindable(now),
                                    reason(by),
                                    executionId);
                            if (updated != 1) {
                                throw new IllegalStateException(
                                        "Execution " + executionId + " changed under its lock: " + status);
                            }
                            yield Cancellation.Result.CANCELLED;
                        }
                        case RUNNING -> {
                            if (this.jdbc
                                    .queryForList(this.tables.sql(FIND), String.class, executionId)
                                    .isEmpty()) {
                                this.jdbc.update(this.tables.sql(INSERT), executionId, this.dialect.bindable(now), by);
                            }
                            yield Cancellation.Result.STOP_REQUESTED;
                        }
                        case CANCELLED -> Cancellation.Result.ALREADY_CANCELLED;
                        default -> Cancellation.Result.ALREADY_ENDED;
                    };
            return new Cancellation(executionId, status, result);
        });
    }

    /**
     * Returns who asked to stop each of the given attempts, for those that have a request: one
     * read of the table's primary key.
     * @param executionIds running attempts
     * @return who asked, by execution id
     */
    public Map<Long, String> requested(Collection<Long> executionIds) {
        Map<Long, String> requested = new HashMap<>();
        if (executionIds.isEmpty()) {
            return requested;
        }
        this.named.query(REQUESTED, Map.of("ids", executionIds), (row) -> {
            requested.put(row.getLong("execution_id"), row.getString("requested_by"));
        });
        return requested;
    }

    /**
     * Locks a running attempt's row and returns who asked to stop it, inside the caller's
     * transaction: a request written before is seen, one written after waits for the caller's
     * outcome and then finds the attempt ended.
     * @param executionId the attempt
     * @return who asked, or empty
     */
    Optional<String> lockAndFind(long executionId) {
        this.jdbc.queryForList(this.tables.sql(LOCK), String.class, executionId);
        return this.jdbc.queryForList(this.tables.sql(FIND), String.class, executionId).stream()
                .findFirst();
    }

    /**
     * The reason recorded with an attempt cancelled on someone's request.
     * @param requestedBy who asked
     * @return the reason
     */
    public static String reason(String requestedBy) {
        return "cancelled by " + requestedBy;
    }
}
