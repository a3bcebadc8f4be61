package io.dsched.internal.history;

import io.dsched.internal.store.ClusterTables;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;

/**
 * Runs a purge in small batches, so that no statement holds many locks: it selects the keys of a
 * batch, then acts on them, until a batch comes back short or a run has done enough batches.
 */
final class Batches {

    private static final int MAX_BATCHES_PER_RUN = 1000;

    private final JdbcTemplate jdbc;

    private final NamedParameterJdbcTemplate named;

    private final ClusterTables tables;

    private final int size;

    Batches(JdbcTemplate jdbc, ClusterTables tables, int size) {
        this.jdbc = jdbc;
        this.named = tables.named(jdbc);
        this.tables = tables;
        this.size = size;
    }

    int size() {
        return this.size;
    }

    NamedParameterJdbcTemplate named() {
        return this.named;
    }

    <T> int run(String select, Class<T> type, Object parameter, Function<List<T>, Integer> action) {
        int total = 0;
        for (int batch = 0; batch < MAX_BATCHES_PER_RUN; batch++) {
            List<T> keys = this.jdbc.queryForList(this.tables.sql(select), type, parameter);
            if (keys.isEmpty()) {
                break;
            }
            total += action.apply(keys);
            if (keys.size() < this.size) {
                break;
            }
        }
        return total;
    }

    <T> int deleteKeys(String select, Class<T> type, Object cutoff, String delete) {
        return run(select, type, cutoff, (keys) -> this.named.update(delete, Map.of("keys", keys, "cutoff", cutoff)));
    }

    int deleteById(String table, String condition, Object cutoff, String... dependents) {
        // ids first, then a delete by id: one form that every database runs the same way
        // (MySQL takes no LIMIT in an IN subquery; H2's DELETE ... LIMIT stops early on an index)
        String select = "SELECT id FROM " + table + " WHERE " + condition + " ORDER BY id LIMIT " + this.size;
        String delete = "DELETE FROM " + table + " WHERE id IN (:ids)";
        return run(select, Long.class, cutoff, (ids) -> {
            // the rows that belong to these first: if the run stops in between, the next one
            // finds the same ids again
            for (String dependent : dependents) {
                this.named.update(dependent, Map.of("ids", ids));
            }
            return this.named.update(delete, Map.of("ids", ids));
        });
    }
}
