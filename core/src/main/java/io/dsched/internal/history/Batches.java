package io.dsched.internal.history;

import io.dsched.internal.store.ClusterTables;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;

/**
 * Runs a purge in small batches, so that no statement holds many locks: it selects the keys of a
 * batch, then acts on them, until a batch comes back short or a run has acted on enough rows. It
 * rests between batches, if asked, so that the claims and outcomes of the nodes, which commit
 * beside it, do not queue behind one delete after another (W8 in the benchmarks).
 */
final class Batches {

    /** Rows a run acts on at most, whatever the batch size: the rest waits for the next run. */
    private static final int MAX_ROWS_PER_RUN = 1_000_000;

    private final JdbcTemplate jdbc;

    private final NamedParameterJdbcTemplate named;

    private final ClusterTables tables;

    private final int size;

    private final Duration pause;

    Batches(JdbcTemplate jdbc, ClusterTables tables, int size, Duration pause) {
        if (pause == null || pause.isNegative()) {
            throw new IllegalArgumentException("The pause between batches must be zero or more, not " + pause);
        }
        this.jdbc = jdbc;
        this.named = tables.named(jdbc);
        this.tables = tables;
        this.size = size;
        this.pause = pause;
    }

    int size() {
        return this.size;
    }

    NamedParameterJdbcTemplate named() {
        return this.named;
    }

    <T> int run(String select, Class<T> type, Object parameter, Function<List<T>, Integer> action) {
        return run(() -> this.jdbc.queryForList(this.tables.sql(select), type, parameter), action);
    }

    private <T> int run(Supplier<List<T>> batch, Function<List<T>, Integer> action) {
        int total = 0;
        // an operator's stop of the housekeeping job interrupts it: no batch starts after that
        for (int rows = 0; rows < MAX_ROWS_PER_RUN && !Thread.currentThread().isInterrupted(); ) {
            List<T> keys = batch.get();
            if (keys.isEmpty()) {
                break;
            }
            total += action.apply(keys);
            rows += keys.size();
            if (keys.size() < this.size || !rest()) {
                break;
            }
        }
        return total;
    }

    /** Rests between two batches; tells whether to go on (not if the thread is interrupted). */
    private boolean rest() {
        if (this.pause.isZero()) {
            return true;
        }
        try {
            Thread.sleep(this.pause.toMillis());
            return true;
        } catch (InterruptedException ex) {
            // stopped: what is left waits for the next run
            Thread.currentThread().interrupt();
            return false;
        }
    }

    <T> int deleteKeys(String select, Class<T> type, Object cutoff, String delete) {
        return run(select, type, cutoff, (keys) -> this.named.update(delete, Map.of("keys", keys, "cutoff", cutoff)));
    }

    int deleteById(String table, String condition, Object cutoff, String... dependents) {
        // ids first, then a delete by id: one form that every database runs the same way
        // (MySQL takes no LIMIT in an IN subquery; H2's DELETE ... LIMIT stops early on an index)
        // each batch from past the last one's ids: a read of the rows left does not pass over the
        // index entries of those just deleted, which stay until the table is vacuumed. A row that
        // becomes due below the cursor during the run (an attempt that ends) waits for the next
        // run. The condition takes exactly one parameter, the cutoff
        String select = this.tables.sql(
                "SELECT id FROM " + table + " WHERE (" + condition + ") AND id > ? ORDER BY id LIMIT " + this.size);
        String delete = "DELETE FROM " + table + " WHERE id IN (:ids)";
        AtomicLong after = new AtomicLong(Long.MIN_VALUE);
        return run(() -> this.jdbc.queryForList(select, Long.class, cutoff, after.get()), (ids) -> {
            after.set(ids.get(ids.size() - 1));
            // the rows that belong to these first: if the run stops in between, the next one
            // finds the same ids again
            for (String dependent : dependents) {
                this.named.update(dependent, Map.of("ids", ids));
            }
            return this.named.update(delete, Map.of("ids", ids));
        });
    }
}
