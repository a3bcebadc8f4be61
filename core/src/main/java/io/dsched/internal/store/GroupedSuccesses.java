package io.dsched.internal.store;

import io.dsched.execution.ExecutionRecord;
import io.dsched.quartz.StartBacklog;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import net.javacrumbs.shedlock.core.LockConfiguration;
import org.springframework.jdbc.core.BatchPreparedStatementSetter;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Writes the outcomes of attempts that succeeded on this node, many in one transaction, on a
 * thread of its own: the worker that ran an attempt goes on to the next while its outcome is
 * written together with those of the other workers. Each row is fenced as {@link
 * ExecutionRepository#finish} fences it: only an attempt still running on its claiming node is
 * written. Until its outcome is written an attempt stays RUNNING on this node, so a node that dies
 * in between has it run again elsewhere, as if it had died during the run.
 *
 * <p>A job's guard, when it is a lock of dsched's table, is released in the same transaction: the
 * guard is held until the outcome is written, and the worker spends no commit of its own on it.
 */
final class GroupedSuccesses implements AutoCloseable {

    private static final int MAX_BATCH = 256;

    /** How long to keep trying to write a batch while the database is unreachable. */
    private static final Duration PATIENCE = Duration.ofMinutes(5);

    private static final String SUCCEED = """
            UPDATE dsched_execution
               SET status = 'SUCCEEDED', started_at = ?, finished_at = ?, error_class = NULL, error_message = NULL
             WHERE id = ? AND status = 'RUNNING' AND node_id = ?
            """;

    private final JdbcTemplate jdbc;

    private final ClusterTables tables;

    private final SqlDialect dialect;

    private final TransactionTemplate transactions;

    /** Bounded, so that workers wait rather than run ahead of a database that cannot keep up. */
    private final WriteBehind<Pending> writer;

    GroupedSuccesses(
            JdbcTemplate jdbc,
            SqlDialect dialect,
            ClusterTables tables,
            TransactionTemplate transactions,
            StartBacklog backlog) {
        this.jdbc = jdbc;
        this.tables = tables;
        this.dialect = dialect;
        this.transactions = transactions;
        this.writer = new WriteBehind<>("dsched-outcomes", MAX_BATCH, 4 * MAX_BATCH, backlog, this::write);
    }

    /**
     * Hands over the outcome of an attempt that succeeded.
     * @param claim the running attempt
     * @param startedAt when its method started
     * @param finishedAt when it ended
     * @param guard the job's guard to release with the outcome, or {@code null}
     * @return completes with {@code true} once written, {@code false} if the attempt no longer
     *     runs on its node, or exceptionally if the database could not be written
     */
    CompletableFuture<Boolean> succeed(
            ExecutionRecord claim, Instant startedAt, Instant finishedAt, LockRelease guard) {
        return this.writer.submit(new Pending(claim, startedAt, finishedAt, guard));
    }

    /**
     * Asks for the outcomes handed over to be written without waiting for the node's due fires to
     * start: for a worker about to block until one of them is written.
     */
    void hurry() {
        this.writer.hurry();
    }

    private boolean[] write(List<Pending> batch) {
        AtomicBoolean tried = new AtomicBoolean();
        return TransientFailures.retry(
                batch.size() + " outcome(s)",
                PATIENCE,
                () -> this.transactions.execute((tx) -> update(batch, tried.getAndSet(true))));
    }

    private boolean[] update(List<Pending> batch, boolean again) {
        // a transaction tried again may follow one that committed although its answer was lost:
        // the guards of the outcomes it wrote were released with them, and may be held anew
        Set<Long> writtenBefore = again ? writtenByTheirNodes(batch) : Set.of();
        int[] counts = this.jdbc.batchUpdate(this.tables.sql(SUCCEED), new BatchPreparedStatementSetter() {
            @Override
            public void setValues(PreparedStatement statement, int i) throws SQLException {
                Pending pending = batch.get(i);
                statement.setObject(1, GroupedSuccesses.this.dialect.bindable(pending.startedAt()));
                statement.setObject(2, GroupedSuccesses.this.dialect.bindable(pending.finishedAt()));
                statement.setLong(3, pending.claim().id());
                statement.setString(4, pending.claim().nodeId());
            }

            @Override
            public int getBatchSize() {
                return batch.size();
            }
        });
        boolean[] written = new boolean[batch.size()];
        boolean unknown = false;
        for (int i = 0; i < counts.length; i++) {
            written[i] = counts[i] == 1;
            unknown |= counts[i] == Statement.SUCCESS_NO_INFO;
        }
        releaseGuards(batch, writtenBefore);
        return unknown ? confirm(batch) : written;
    }

    private Set<Long> writtenByTheirNodes(List<Pending> batch) {
        Map<Long, String> succeeded = succeeded(batch);
        Set<Long> written = new HashSet<>();
        for (Pending pending : batch) {
            if (pending.claim().nodeId().equals(succeeded.get(pending.claim().id()))) {
                written.add(pending.claim().id());
            }
        }
        return written;
    }

    /**
     * Releases the guards of the batch, whether or not each outcome was written: each run ended.
     * A guard past half its {@code lockAtMostFor} is left to free itself: by then this node may
     * have taken it again for a next run, which a release by name and node would end.
     */
    private void releaseGuards(List<Pending> batch, Set<Long> writtenBefore) {
        Instant now = Instant.now();
        Map<LockTable, List<LockConfiguration>> guards = new HashMap<>();
        for (Pending pending : batch) {
            LockRelease guard = pending.guard();
            if (guard != null && !writtenBefore.contains(pending.claim().id()) && !halfExpired(guard.lock(), now)) {
                guards.computeIfAbsent(guard.table(), (table) -> new ArrayList<>())
                        .add(guard.lock());
            }
        }
        guards.forEach((table, locks) -> this.jdbc.execute((ConnectionCallback<Void>) (connection) -> {
            table.unlockOn(connection, locks);
            return null;
        }));
    }

    private static boolean halfExpired(LockConfiguration lock, Instant now) {
        return now.isAfter(
                lock.getLockAtMostUntil().minus(lock.getLockAtMostFor().dividedBy(2)));
    }

    /** Some drivers do not tell each row's count of a batch: read back which rows were written. */
    private boolean[] confirm(List<Pending> batch) {
        Map<Long, String> succeeded = succeeded(batch);
        boolean[] written = new boolean[batch.size()];
        for (int i = 0; i < batch.size(); i++) {
            written[i] = succeeded.containsKey(batch.get(i).claim().id());
        }
        return written;
    }

    /** The attempts of the batch that are SUCCEEDED, with the node that ran each: one read. */
    private Map<Long, String> succeeded(List<Pending> batch) {
        List<Long> ids = batch.stream().map((pending) -> pending.claim().id()).toList();
        Map<Long, String> succeeded = new HashMap<>();
        this.tables
                .named(this.jdbc)
                .query(
                        "SELECT id, node_id FROM dsched_execution WHERE id IN (:ids) AND status = 'SUCCEEDED'",
                        new MapSqlParameterSource("ids", ids),
                        (row) -> {
                            succeeded.put(row.getLong("id"), row.getString("node_id"));
                        });
        return succeeded;
    }

    /** Writes what was handed over, waiting up to half a minute, then stops the writer. */
    @Override
    public void close() {
        this.writer.close();
    }

    private record Pending(ExecutionRecord claim, Instant startedAt, Instant finishedAt, LockRelease guard) {}
}
