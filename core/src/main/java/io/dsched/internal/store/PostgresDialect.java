package io.dsched.internal.store;

import io.dsched.execution.ExecutionRecord;
import io.dsched.quartz.SkipLockedDelegates;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeFormatterBuilder;
import java.time.format.SignStyle;
import java.time.temporal.ChronoField;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import net.javacrumbs.shedlock.provider.sql.DatabaseProduct;
import org.quartz.impl.jdbcjobstore.PostgreSQLDelegate;
import org.springframework.transaction.TransactionStatus;
import org.springframework.util.ClassUtils;

/** PostgreSQL 12 or later: {@code RETURNING}, {@code ON CONFLICT}, arrays and advisory locks. */
final class PostgresDialect extends SqlDialect {

    /**
     * One statement that claims due attempts in claim order, passing over locked ones: the attempts
     * of each band of priorities ({@link PriorityBands}) locked in turn, each band no more than
     * the claim still wants, so that no row is locked that is not claimed.
     */
    private static final String CLAIM_DUE_RETURNING = """
            WITH above AS (SELECT id FROM dsched_execution
                            WHERE status IN ('SCHEDULED', 'RETRY_SCHEDULED') AND due_at <= :now
                              AND job_name IN (:names) AND priority > 0
                            ORDER BY priority DESC, due_at LIMIT :limit
                              FOR UPDATE SKIP LOCKED),
                 level AS (SELECT id FROM dsched_execution
                            WHERE status IN ('SCHEDULED', 'RETRY_SCHEDULED') AND due_at <= :now
                              AND job_name IN (:names) AND priority = 0
                            ORDER BY due_at LIMIT :limit - (SELECT COUNT(*) FROM above)
                              FOR UPDATE SKIP LOCKED),
                 below AS (SELECT id FROM dsched_execution
                            WHERE status IN ('SCHEDULED', 'RETRY_SCHEDULED') AND due_at <= :now
                              AND job_name IN (:names) AND priority < 0
                            ORDER BY priority DESC, due_at
                            LIMIT :limit - (SELECT COUNT(*) FROM above) - (SELECT COUNT(*) FROM level)
                              FOR UPDATE SKIP LOCKED)
            UPDATE dsched_execution SET status = 'RUNNING', node_id = :nodeId, started_at = :now
             WHERE id IN (SELECT id FROM above UNION ALL SELECT id FROM level UNION ALL SELECT id FROM below)
            RETURNING *
            """;

    @Override
    String[] waiting(String where) {
        return new String[] {"status IN ('SCHEDULED', 'RETRY_SCHEDULED') AND " + where};
    }

    /** The insert of a batch from one array per column: see {@link #insertArrays}. */
    private static final String INSERT_ARRAYS =
            ExecutionRows.INSERT.substring(0, ExecutionRows.INSERT.indexOf("VALUES")) + """
            SELECT * FROM unnest(?::varchar[], ?::timestamptz[], ?::int[], ?::varchar[], ?::varchar[],
                                 ?::varchar[], ?::timestamptz[], ?::timestamptz[], ?::varchar[], ?::varchar[],
                                 ?::varchar[], ?::varchar[], ?::timestamptz[], ?::text[], ?::int[], ?::varchar[])
            RETURNING id, idempotency_key, attempt
            """;

    /**
     * The smallest batch loaded by {@code COPY} ({@link PostgresCopy}); a smaller one is one insert
     * of arrays, which costs one round trip where {@code COPY} costs three (its ids, its start and
     * its end).
     */
    static final int COPY_FROM = 100;

    /** Whether PostgreSQL's own driver, which {@code COPY} needs, is on the class path. */
    private static final boolean DRIVER =
            ClassUtils.isPresent("org.postgresql.PGConnection", PostgresDialect.class.getClassLoader());

    private static final String INSERT_RETURNING = ExecutionRows.INSERT + " RETURNING id";

    /** The insert of a claim, passing over an existing attempt. */
    private static final String INSERT_OR_NOTHING_RETURNING =
            ExecutionRows.INSERT + " ON CONFLICT DO NOTHING RETURNING id";

    /**
     * An instant as PostgreSQL reads a timestamp with time zone, in UTC, to the microsecond; unlike
     * {@code Instant.toString()} it writes a year past 9999 with no sign.
     */
    private static final DateTimeFormatter TIMESTAMP_TEXT = new DateTimeFormatterBuilder()
            .appendValue(ChronoField.YEAR, 4, 10, SignStyle.NORMAL)
            .appendPattern("-MM-dd HH:mm:ss.SSSSSS'+00'")
            .toFormatter(Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    @Override
    public String lockClockSql() {
        return "timezone('utc', CURRENT_TIMESTAMP)";
    }

    @Override
    public DatabaseProduct shedLockProduct() {
        return DatabaseProduct.POSTGRES_SQL;
    }

    @Override
    public String quartzDelegate(boolean skipLocked) {
        // PostgreSQL needs a delegate of its own for binary columns
        return (skipLocked ? SkipLockedDelegates.PostgreSQL.class : PostgreSQLDelegate.class).getName();
    }

    @Override
    public Optional<String> notifySql() {
        return Optional.of("SELECT pg_notify(?, payload) FROM unnest(?::text[]) AS payload");
    }

    @Override
    public Optional<SessionLock> schemaLock() {
        return Optional.of(new SessionLock("SELECT pg_advisory_lock(?)", "SELECT pg_advisory_unlock(?)", 0x64736368L));
    }

    @Override
    String traceUpsert() {
        return """
                INSERT INTO dsched_execution_trace (idempotency_key, carrier, created_at) VALUES (?, ?, ?)
                ON CONFLICT (idempotency_key)
                DO UPDATE SET carrier = EXCLUDED.carrier, created_at = EXCLUDED.created_at
                """;
    }

    @Override
    List<Long> insertBatch(ExecutionRows rows, List<ExecutionRecord> batch) {
        if (batch.size() == 1) {
            return List.of(insertReturning(rows, batch.get(0)));
        }
        if (batch.size() >= COPY_FROM && DRIVER) {
            List<Long> ids = PostgresCopy.insert(rows, batch);
            if (ids != null) {
                return ids;
            }
        }
        return insertArrays(rows, batch);
    }

    /** One insert of one row that returns the id it gave. */
    private static long insertReturning(ExecutionRows rows, ExecutionRecord row) {
        Long id = rows.jdbc.query(
                rows.tables.sql(INSERT_RETURNING),
                (statement) -> rows.bind(statement, row),
                (ResultSet result) -> result.next() ? result.getLong(1) : null);
        if (id == null) {
            throw new IllegalStateException("Inserted an attempt but got no id");
        }
        return id;
    }

    /**
     * One insert of a whole batch from one array per column, which returns the ids it gave: a
     * statement of 16 parameters, parsed and planned in no time, whatever the size of the batch.
     * Instants travel as text in UTC with their offset, so the session's time zone plays no part.
     */
    private static List<Long> insertArrays(ExecutionRows rows, List<ExecutionRecord> batch) {
        int size = batch.size();
        Object[][] columns = new Object[ExecutionRows.COLUMNS][size];
        for (int i = 0; i < size; i++) {
            ExecutionRecord row = batch.get(i);
            columns[0][i] = row.jobName();
            columns[1][i] = text(row.scheduledAt());
            columns[2][i] = row.attempt();
            columns[3][i] = row.idempotencyKey();
            columns[4][i] = row.status().name();
            columns[5][i] = row.nodeId();
            columns[6][i] = text(row.startedAt());
            columns[7][i] = text(row.finishedAt());
            columns[8][i] = row.errorClass();
            columns[9][i] = row.errorMessage();
            columns[10][i] = row.statusReason();
            columns[11][i] = row.origin().name();
            columns[12][i] = text(row.dueAt());
            columns[13][i] = row.payload();
            columns[14][i] = row.priority();
            columns[15][i] = row.limitKey();
        }
        Map<String, Long> ids = new HashMap<>();
        rows.jdbc.query(
                (connection) -> {
                    PreparedStatement statement = connection.prepareStatement(rows.tables.sql(INSERT_ARRAYS));
                    for (int column = 0; column < ExecutionRows.COLUMNS; column++) {
                        String type = (column == 2 || column == 14) ? "int4" : "text";
                        statement.setArray(column + 1, connection.createArrayOf(type, columns[column]));
                    }
                    return statement;
                },
                (row) -> {
                    ids.put(
                            ExecutionRows.key(row.getString("idempotency_key"), row.getInt("attempt")),
                            row.getLong("id"));
                });
        return ExecutionRows.inOrder(batch, ids);
    }

    static String text(Instant instant) {
        return (instant != null) ? TIMESTAMP_TEXT.format(instant) : null;
    }

    @Override
    Map<String, ExecutionRecord> claimOn(ExecutionRows rows, Connection connection, List<ExecutionRecord> claims)
            throws SQLException {
        Map<String, ExecutionRecord> claimed = new HashMap<>();
        try (PreparedStatement statement = connection.prepareStatement(rows.tables.sql(INSERT_OR_NOTHING_RETURNING))) {
            for (ExecutionRecord claim : claims) {
                rows.bind(statement, claim);
                try (ResultSet keys = statement.executeQuery()) {
                    if (keys.next()) {
                        claimed.put(claim.idempotencyKey(), claim.withId(keys.getLong(1)));
                    }
                }
            }
        }
        return claimed;
    }

    @Override
    List<ExecutionRecord> claimDue(
            ExecutionRows rows, TransactionStatus tx, String nodeId, Instant now, int limit, Collection<String> names) {
        // right after a large batch of submissions the planner's statistics still say the table is
        // small, and it would read every waiting row and sort them to find the oldest few; the
        // index of waiting rows gives them in order at any size
        rows.jdbc.execute("SET LOCAL enable_sort = off");
        return rows.named.query(
                CLAIM_DUE_RETURNING, rows.dueParameters(now, limit, names).addValue("nodeId", nodeId), rows::mapRow);
    }
}
