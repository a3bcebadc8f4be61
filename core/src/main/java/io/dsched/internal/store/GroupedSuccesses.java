package io.dsched.internal.store;

import io.dsched.execution.ExecutionRecord;
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
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import net.javacrumbs.shedlock.core.LockConfiguration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
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

    private static final Logger logger = LoggerFactory.getLogger(GroupedSuccesses.class);

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
    private final LinkedBlockingQueue<Pending> queue = new LinkedBlockingQueue<>(4 * MAX_BATCH);

    private final Thread writer;

    private volatile boolean open = true;

    GroupedSuccesses(JdbcTemplate jdbc, SqlDialect dialect, ClusterTables tables, TransactionTemplate transactions) {
        this.jdbc = jdbc;
        this.tables = tables;
        this.dialect = dialect;
        this.transactions = transactions;
        this.writer = new Thread(this::writeWhileOpen, "dsched-outcomes");
        this.writer.setDaemon(true);
        this.writer.start();
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
            ExecutionRecord claim, Instant startedAt, Instant finishedAt, LockTable.Release guard) {
        if (!this.open) {
            throw new IllegalStateException("dsched's outcome writer is closed");
        }
        Pending pending = new Pending(claim, startedAt, finishedAt, guard, new CompletableFuture<>());
        try {
            this.queue.put(pending);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            pending.written().completeExceptionally(ex);
        }
        return pending.written();
    }

    private void writeWhileOpen() {
        List<Pending> batch = new ArrayList<>(MAX_BATCH);
        while (this.open || !this.queue.isEmpty()) {
            try {
                Pending first = this.queue.poll(200, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                this.queue.drainTo(batch, MAX_BATCH - 1);
                write(batch);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                return;
            } finally {
                batch.clear();
            }
        }
    }

    private void write(List<Pending> batch) {
        try {
            AtomicBoolean tried = new AtomicBoolean();
            boolean[] written = TransientFailures.retry(
                    batch.size() + " outcome(s)",
                    PATIENCE,
                    () -> this.transactions.execute((tx) -> update(batch, tried.getAndSet(true))));
            for (int i = 0; i < batch.size(); i++) {
                batch.get(i).written().complete(written[i]);
            }
        } catch (RuntimeException ex) {
            logger.warn("Could not write {} outcome(s): {}", batch.size(), ex.getMessage());
            batch.forEach((pending) -> pending.written().completeExceptionally(ex));
        }
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
            LockTable.Release guard = pending.guard();
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
        this.open = false;
        try {
            this.writer.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    private record Pending(
            ExecutionRecord claim,
            Instant startedAt,
            Instant finishedAt,
            LockTable.Release guard,
            CompletableFuture<Boolean> written) {}
}
