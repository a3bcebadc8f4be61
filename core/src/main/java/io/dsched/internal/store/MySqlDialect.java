package io.dsched.internal.store;

import io.dsched.execution.ExecutionRecord;
import io.dsched.quartz.SkipLockedDelegates;
import java.sql.Connection;
import java.sql.JDBCType;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import net.javacrumbs.shedlock.provider.sql.DatabaseProduct;
import org.quartz.impl.jdbcjobstore.StdJDBCDelegate;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.transaction.TransactionStatus;

/**
 * MariaDB 10.6 or later, which the tests run on, and MySQL 8, expected to work with the same SQL,
 * not yet tested: timestamps kept as UTC wall-clock times in {@code DATETIME(3)}, {@code INSERT
 * IGNORE}, and due attempts found without a lock before they are locked by their keys.
 */
final class MySqlDialect extends SqlDialect {

    /**
     * The waiting attempts that have fallen due, the higher priority first, then the oldest, read
     * without a lock: one ordered range of the index on (status, priority, due_at) for each waiting
     * status. A locking read of that index in InnoDB
     * locks every entry it passes, the delete-marked entries that each claim leaves behind
     * included, so the claims of two nodes block each other and deadlock with the writes of
     * outcomes; this read locks nothing.
     */
    private static final String DUE_CANDIDATES = dueCandidates("");

    /** The next candidates, past those a claim tried already. */
    private static final String DUE_CANDIDATES_PAST_TRIED = dueCandidates(" AND id NOT IN (:tried)");

    /** The due candidates of each waiting status and band of priorities ({@link PriorityBands}). */
    private static String dueCandidates(String more) {
        String where = "due_at <= :now AND job_name IN (:names)" + more;
        return PriorityBands.union(
                "id, priority, due_at", "status = 'RETRY_SCHEDULED' AND " + where, "status = 'SCHEDULED' AND " + where);
    }

    /** Locks candidates by their primary key if they still wait, passing over those another holds. */
    private static final String LOCK_WAITING = """
            SELECT * FROM dsched_execution
             WHERE id IN (:ids) AND status IN ('SCHEDULED', 'RETRY_SCHEDULED') AND due_at <= :now
               FOR UPDATE SKIP LOCKED
            """;

    /** How many rounds of candidates one claim reads at most. */
    private static final int CLAIM_ROUNDS = 3;

    /**
     * The insert of a claim, passing over an existing attempt. The row is built by dsched, not by a
     * client: IGNORE can only pass over the duplicate.
     */
    private static final String INSERT_IGNORE = ExecutionRows.INSERT.replaceFirst("INSERT INTO", "INSERT IGNORE INTO");

    @Override
    public Object bindable(Instant instant) {
        return LocalDateTime.ofInstant(instant, ZoneOffset.UTC);
    }

    @Override
    public JDBCType timestampType() {
        return JDBCType.TIMESTAMP;
    }

    @Override
    public Instant readInstant(ResultSet resultSet, String column) throws SQLException {
        LocalDateTime value = resultSet.getObject(column, LocalDateTime.class);
        return (value != null) ? value.toInstant(ZoneOffset.UTC) : null;
    }

    @Override
    public String currentTimestampSql() {
        return "UTC_TIMESTAMP(3)";
    }

    @Override
    public String lockClockSql() {
        return "UTC_TIMESTAMP(3)";
    }

    @Override
    public DatabaseProduct shedLockProduct() {
        return DatabaseProduct.MY_SQL;
    }

    @Override
    public String quartzDelegate(boolean skipLocked) {
        return (skipLocked ? SkipLockedDelegates.Standard.class : StdJDBCDelegate.class).getName();
    }

    @Override
    public Optional<SessionLock> schemaLock() {
        return Optional.of(new SessionLock("SELECT GET_LOCK(?, 300)", "SELECT RELEASE_LOCK(?)", "dsched.schema"));
    }

    @Override
    List<Object> instantConverters() {
        return InstantConverters.forUtcWallClock(this);
    }

    @Override
    String traceUpsert() {
        return """
                INSERT INTO dsched_execution_trace (idempotency_key, carrier, created_at) VALUES (?, ?, ?)
                ON DUPLICATE KEY UPDATE carrier = VALUES(carrier), created_at = VALUES(created_at)
                """;
    }

    /**
     * One JDBC batch of the insert, then one read of the ids it gave by the rows' unique keys:
     * MariaDB's driver sends such a batch in one go, as it does not when generated keys are asked
     * for; MySQL Connector/J does with {@code rewriteBatchedStatements=true}.
     */
    @Override
    List<Long> insertBatch(ExecutionRows rows, List<ExecutionRecord> batch) {
        if (batch.size() == 1) {
            return super.insertBatch(rows, batch);
        }
        rows.jdbc.batchUpdate(rows.tables.sql(ExecutionRows.INSERT), rows.binding(batch));
        Map<String, Long> ids = new HashMap<>();
        List<String> keys =
                batch.stream().map(ExecutionRecord::idempotencyKey).distinct().toList();
        rows.named.query(
                "SELECT id, idempotency_key, attempt FROM dsched_execution WHERE idempotency_key IN (:keys)",
                new MapSqlParameterSource("keys", keys),
                (row) -> {
                    ids.put(
                            ExecutionRows.key(row.getString("idempotency_key"), row.getInt("attempt")),
                            row.getLong("id"));
                });
        return ExecutionRows.inOrder(batch, ids);
    }

    @Override
    Map<String, ExecutionRecord> claimOn(ExecutionRows rows, Connection connection, List<ExecutionRecord> claims)
            throws SQLException {
        Map<String, ExecutionRecord> claimed = new HashMap<>();
        try (PreparedStatement statement =
                connection.prepareStatement(rows.tables.sql(INSERT_IGNORE), Statement.RETURN_GENERATED_KEYS)) {
            for (ExecutionRecord claim : claims) {
                rows.bind(statement, claim);
                if (statement.executeUpdate() == 1) {
                    try (ResultSet keys = statement.getGeneratedKeys()) {
                        if (keys.next()) {
                            claimed.put(claim.idempotencyKey(), claim.withId(keys.getLong(1)));
                        }
                    }
                }
            }
        }
        return claimed;
    }

    @Override
    List<ExecutionRecord> claimDue(
            ExecutionRows rows, TransactionStatus tx, String nodeId, Instant now, int limit, Collection<String> names) {
        if (tx.isNewTransaction()) {
            // a snapshot would make the locking read of a row claimed since it fail (MariaDB with
            // innodb_snapshot_isolation), and would keep the rows it turns down locked
            rows.jdbc.execute("SET TRANSACTION ISOLATION LEVEL READ COMMITTED");
        }
        List<ExecutionRecord> locked = lockDue(rows, now, limit, names);
        if (locked.isEmpty()) {
            return List.of();
        }
        List<Long> ids = locked.stream().map(ExecutionRecord::id).toList();
        int updated = rows.repository.claimLocked(ids, nodeId, now);
        if (updated != ids.size()) {
            throw new IllegalStateException("Locked " + ids.size() + " due attempts but could claim only " + updated);
        }
        return locked.stream().map((attempt) -> attempt.claimedBy(nodeId, now)).toList();
    }

    /**
     * Locks up to {@code limit} of the due attempts first in order (priority, then due time). Each round reads twice as many
     * candidates as are still wanted, so that a claim racing another node's for the oldest
     * attempts takes the next ones, and a further round reads past those tried when the others
     * took all of them.
     */
    private static List<ExecutionRecord> lockDue(ExecutionRows rows, Instant now, int limit, Collection<String> names) {
        List<ExecutionRecord> locked = new ArrayList<>();
        List<Long> tried = new ArrayList<>();
        for (int round = 0; round < CLAIM_ROUNDS && locked.size() < limit; round++) {
            int wanted = 2 * (limit - locked.size());
            List<Long> candidates = rows.named.query(
                    tried.isEmpty() ? DUE_CANDIDATES : DUE_CANDIDATES_PAST_TRIED,
                    rows.dueParameters(now, wanted, names).addValue("tried", tried),
                    (row, number) -> row.getLong("id"));
            for (int from = 0; from < candidates.size() && locked.size() < limit; ) {
                int to = Math.min(candidates.size(), from + limit - locked.size());
                locked.addAll(rows.named.query(
                        LOCK_WAITING,
                        new MapSqlParameterSource("ids", candidates.subList(from, to))
                                .addValue("now", rows.dialect.bindable(now)),
                        rows::mapRow));
                from = to;
            }
            if (candidates.size() < wanted) {
                break;
            }
            tried.addAll(candidates);
        }
        return locked;
    }
}
