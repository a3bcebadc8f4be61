package io.dsched.internal.store;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;

/**
 * The cluster-wide limits of targets as {@code dsched_limit} holds them, with how much of each is
 * used, to show; and the limits an admin sets at run time, which every node claims by from its next
 * claim on, and takes back to the declared ones.
 */
public final class LimitStore {

    private static final String ROWS = """
            SELECT name, max_concurrent, rate_permits, rate_period_ms, tokens, refilled_at, set_by, set_at
              FROM dsched_limit ORDER BY name
            """;

    private static final String RUNNING = """
            SELECT job_name, limit_key, COUNT(*) AS attempts FROM dsched_execution
             WHERE status = 'RUNNING' AND job_name IN (:names) GROUP BY job_name, limit_key
            """;

    private static final String WAITING = """
            SELECT job_name, limit_key, COUNT(*) AS attempts FROM dsched_execution
             WHERE status IN ('SCHEDULED', 'RETRY_SCHEDULED') AND due_at <= :now AND job_name IN (:names)
             GROUP BY job_name, limit_key
            """;

    private final ExecutionRows rows;

    private final LimitRows limitRows;

    LimitStore(ExecutionRows rows, LimitRows limitRows) {
        this.rows = rows;
        this.limitRows = limitRows;
    }

    /**
     * Reads every target's limits in force and their use.
     * @param now the time, for the bucket's tokens and the attempts due
     * @return the targets by name
     */
    public List<LimitUse> uses(Instant now) {
        List<LimitRow> limits = this.rows.jdbc.query(this.rows.tables.sql(ROWS), this::limitRow);
        if (limits.isEmpty()) {
            return List.of();
        }
        MapSqlParameterSource names = new MapSqlParameterSource()
                .addValue("names", limits.stream().map(LimitRow::name).toList())
                .addValue("now", this.rows.dialect.bindable(now));
        Map<String, Map<String, long[]>> byKey = new HashMap<>();
        this.rows.named.query(this.rows.tables.sql(RUNNING), names, (row) -> {
            count(byKey, row)[0] += row.getLong("attempts");
        });
        this.rows.named.query(this.rows.tables.sql(WAITING), names, (row) -> {
            count(byKey, row)[1] += row.getLong("attempts");
        });
        List<LimitUse> uses = new ArrayList<>(limits.size());
        for (LimitRow limit : limits) {
            uses.add(LimitUse.of(limit, limit.tokensAt(now), byKey.getOrDefault(limit.name(), Map.of())));
        }
        return uses;
    }

    /**
     * Sets a target's limits at run time: every node claims by them from its next claim on, and no
     * node's declaration overwrites them until they are {@link #reset}. A bucket holds no more
     * tokens than its new permits.
     * @param name the target
     * @param maxConcurrent the most of its attempts running at once, or 0
     * @param ratePermits the most started per period, or 0
     * @param ratePeriod the period, or {@code null}
     * @param actor who sets them
     * @param now when
     */
    public void set(String name, int maxConcurrent, int ratePermits, Duration ratePeriod, String actor, Instant now) {
        LimitRows.Limits limits = new LimitRows.Limits(maxConcurrent, ratePermits, ratePeriod);
        if (!update(name, limits, actor, now)) {
            // no node has claimed the target's attempts yet: its row is written first, full
            this.limitRows.write(name, limits);
            this.limitRows.forget(name);
            update(name, limits, actor, now);
        }
    }

    /**
     * Takes a target's limits back to those declared, which this node writes to its row.
     * @param name the target
     * @param maxConcurrent the declared most running at once, or 0
     * @param ratePermits the declared most started per period, or 0
     * @param ratePeriod the declared period, or {@code null}
     * @return whether the target had a row
     */
    public boolean reset(String name, int maxConcurrent, int ratePermits, Duration ratePeriod) {
        boolean reset = update(name, new LimitRows.Limits(maxConcurrent, ratePermits, ratePeriod), null, null);
        // the nodes, which remember writing their own, need not write them again
        this.limitRows.forget(name);
        return reset;
    }

    private boolean update(String name, LimitRows.Limits limits, String actor, Instant at) {
        String sql = "UPDATE dsched_limit SET max_concurrent = ?, rate_permits = ?, rate_period_ms = ?,"
                + " tokens = CASE WHEN tokens > ? THEN ? ELSE tokens END, set_by = ?, set_at = ? WHERE name = ?";
        double most = limits.ratePermits();
        return this.rows.jdbc.update(
                        this.rows.tables.sql(sql),
                        limits.maxConcurrent(),
                        limits.ratePermits(),
                        limits.ratePeriodMillis(),
                        most,
                        most,
                        actor,
                        (at != null) ? this.rows.dialect.bindable(at) : null,
                        name)
                == 1;
    }

    private static long[] count(Map<String, Map<String, long[]>> byKey, ResultSet row) throws SQLException {
        String key = row.getString("limit_key");
        return byKey.computeIfAbsent(row.getString("job_name"), (name) -> new HashMap<>())
                .computeIfAbsent(key, (k) -> new long[2]);
    }

    private LimitRow limitRow(ResultSet row, int number) throws SQLException {
        return new LimitRow(
                row.getString("name"),
                row.getInt("max_concurrent"),
                row.getInt("rate_permits"),
                row.getLong("rate_period_ms"),
                row.getDouble("tokens"),
                this.rows.dialect.readInstant(row, "refilled_at"),
                row.getString("set_by"),
                this.rows.dialect.readInstant(row, "set_at"));
    }

    /** A row of {@code dsched_limit}. */
    record LimitRow(
            String name,
            int maxConcurrent,
            int ratePermits,
            long ratePeriodMillis,
            double tokens,
            Instant refilledAt,
            String setBy,
            Instant setAt) {

        double tokensAt(Instant at) {
            return LimitRows.tokensAt(this.tokens, this.ratePermits, this.ratePeriodMillis, this.refilledAt, at);
        }
    }
}
