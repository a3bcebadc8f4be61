package io.dsched.internal.store;

import io.dsched.execution.ExecutionRecord;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import org.postgresql.PGConnection;
import org.postgresql.copy.CopyIn;
import org.springframework.jdbc.core.ConnectionCallback;

/**
 * A large batch of new attempts into {@code dsched_execution} through {@code COPY ... FROM STDIN},
 * PostgreSQL's bulk load, which stores rows several to a call where an insert stores them one by
 * one. {@code COPY} returns no ids: the batch takes them from the table's identity sequence first,
 * in one statement, and gives them in ascending order, so that ids follow the order of
 * submission as an insert's do. Only with PostgreSQL's own driver ({@code org.postgresql}): the
 * dialect calls {@link #insert} only when that driver is on the class path, and takes another way
 * when the connection is not one of its.
 */
final class PostgresCopy {

    private static final String COPY = "COPY dsched_execution (id, job_name, scheduled_at, attempt, idempotency_key,"
            + " status, node_id, started_at, finished_at, error_class, error_message, status_reason, origin, due_at,"
            + " payload, priority, limit_key) FROM STDIN";

    /**
     * Ids from the identity sequence of the table's {@code id}, looked up once a statement; none if
     * the session could not load them: if it may not take the sequence's values (an insert takes an
     * identity column's next value without the sequence's privileges, and a database may grant a
     * service's role only those of the tables), may not write {@code id} itself, or if row-level
     * security applies to it, which {@code COPY FROM} refuses.
     */
    private static final String NEXT_IDS = """
            SELECT nextval(s.sequence)
              FROM (SELECT pg_get_serial_sequence('dsched_execution', 'id')::regclass AS sequence OFFSET 0) AS s
             CROSS JOIN generate_series(1, ?)
             WHERE has_sequence_privilege(s.sequence, 'USAGE, UPDATE')
               AND has_column_privilege('dsched_execution', 'id', 'INSERT')
               AND NOT row_security_active('dsched_execution')
            """;

    private PostgresCopy() {}

    /**
     * Loads new attempts in the transaction of the caller's template, if any.
     * @param rows the table
     * @param batch the attempts, none with an id
     * @return the ids given, in the order of the batch, or {@code null}, with nothing written, if
     *     the connection is not, and does not wrap, one of PostgreSQL's driver, or if the session
     *     could not load them ({@link #NEXT_IDS})
     */
    static List<Long> insert(ExecutionRows rows, List<ExecutionRecord> batch) {
        return rows.jdbc.execute((ConnectionCallback<List<Long>>) (connection) -> {
            if (!connection.isWrapperFor(PGConnection.class)) {
                return null;
            }
            long[] ids = nextIds(rows, connection, batch.size());
            if (ids == null) {
                return null;
            }
            CopyIn copy = connection.unwrap(PGConnection.class).getCopyAPI().copyIn(rows.tables.sql(COPY));
            try {
                StringBuilder line = new StringBuilder(256);
                Timestamps timestamps = new Timestamps();
                for (int i = 0; i < batch.size(); i++) {
                    line.setLength(0);
                    line(line, ids[i], batch.get(i), timestamps);
                    // a row's text encoded whole: a character outside the BMP stays one
                    byte[] bytes = line.toString().getBytes(StandardCharsets.UTF_8);
                    copy.writeToCopy(bytes, 0, bytes.length);
                }
                copy.endCopy();
            } finally {
                if (copy.isActive()) {
                    copy.cancelCopy();
                }
            }
            return Arrays.stream(ids).boxed().toList();
        });
    }

    /** Takes ids from the table's sequence, or returns {@code null} if the session may not. */
    private static long[] nextIds(ExecutionRows rows, Connection connection, int count) throws SQLException {
        long[] ids = new long[count];
        try (PreparedStatement statement = connection.prepareStatement(rows.tables.sql(NEXT_IDS))) {
            statement.setInt(1, count);
            try (ResultSet result = statement.executeQuery()) {
                int i = 0;
                while (result.next()) {
                    ids[i++] = result.getLong(1);
                }
                if (i == 0) {
                    return null;
                }
                if (i != count) {
                    throw new IllegalStateException("Asked the sequence for " + count + " ids but got " + i);
                }
            }
        }
        Arrays.sort(ids);
        return ids;
    }

    /** One row in COPY's text format: tab between columns, {@code \N} for null, a newline after. */
    private static void line(StringBuilder data, long id, ExecutionRecord row, Timestamps timestamps) {
        data.append(id);
        column(data, row.jobName());
        column(data, timestamps.text(row.scheduledAt()));
        data.append('\t').append(row.attempt());
        column(data, row.idempotencyKey());
        column(data, row.status().name());
        column(data, row.nodeId());
        column(data, timestamps.text(row.startedAt()));
        column(data, timestamps.text(row.finishedAt()));
        column(data, row.errorClass());
        column(data, row.errorMessage());
        column(data, row.statusReason());
        column(data, row.origin().name());
        column(data, timestamps.text(row.dueAt()));
        column(data, row.payload());
        data.append('\t').append(row.priority());
        column(data, row.limitKey());
        data.append('\n');
    }

    /**
     * The text of instants, the last one kept: the attempts of one submission share its time as
     * their scheduled, started and due times, so a batch formats it once, not three times a row.
     */
    private static final class Timestamps {

        private Instant last;

        private String text;

        String text(Instant instant) {
            if (instant == null) {
                return null;
            }
            if (!instant.equals(this.last)) {
                this.last = instant;
                this.text = PostgresDialect.text(instant);
            }
            return this.text;
        }
    }

    /**
     * A column after its tab, escaped as COPY's text format reads it back: a backslash, a tab, a
     * newline and a carriage return would otherwise end or change the value.
     */
    private static void column(StringBuilder data, String value) {
        data.append('\t');
        if (value == null) {
            data.append("\\N");
            return;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\\' -> data.append("\\\\");
                case '\t' -> data.append("\\t");
                case '\n' -> data.append("\\n");
                case '\r' -> data.append("\\r");
                default -> data.append(c);
            }
        }
    }
}
