package io.dsched.internal.store;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.namedparam.MapSqlParameterSource;

/**
 * The cluster-wide limits of targets as {@code dsched_limit} holds them, with how much of each is
 * used, to show; and the limits an admin sets at run time, which every node claims by from its next
 * claim on, and takes back to the declared ones.
 */
public final class LimitStore {

    /** The columns of a row, as {@link LimitRow#read} reads them. */
    static final String COLUMNS =
            "name, max_concurrent, rate_permits, rate_period_ms, tokens, refilled_at, set_by, set_at, quota_permits,"
                    + " quota_period_ms, quota_window, quota_used, adaptive_max, adapted_at, window_outcomes,"
                    + " window_failures, window_signals, key_rate_permits, key_rate_period_ms, adaptive_ratio,"
                    + " adaptive_window_ms, adaptive_min_outcomes, adaptive_min";

    private static final String ROWS = "SELECT " + COLUMNS + " FROM dsched_limit ORDER BY name";

    private static final String ROW = "SELECT " + COLUMNS + " FROM dsched_limit WHERE name = ?";

    private static final String RUNNING = """
            SELECT job_name, limit_key, COUNT(*) AS attempts FROM dsched_execution
             WHERE status = 'RUNNING' AND job_name IN (:names) GROUP BY job_name, limit_key
            """;

    private static final String WAITING = """
            SELECT job_name, limit_key, COUNT(*) AS attempts FROM dsched_execution
             WHERE status IN ('SCHEDULED', 'RETRY_SCHEDULED') AND due_at <= :now AND job_name IN (:names)
             GROUP BY job_name, limit_key
            """;

    private static final String KEY_BUCKETS =
            "SELECT name, limit_key, tokens, refilled_at FROM dsched_limit_key WHERE name IN (:names)";

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
        // the named template names the cluster's tables itself
        this.rows.named.query(RUNNING, names, (row) -> {
            count(byKey, row)[0] += row.getLong("attempts");
        });
        this.rows.named.query(WAITING, names, (row) -> {
            count(byKey, row)[1] += row.getLong("attempts");
        });
        Map<String, Map<String, Double>> keyTokens = new HashMap<>();
        Map<String, LimitRow> byName = new HashMap<>();
        limits.forEach((limit) -> byName.put(limit.name(), limit));
        this.rows.named.query(KEY_BUCKETS, names, (row) -> {
            LimitRow limit = byName.get(row.getString("name"));
            double tokens = Buckets.refilled(
                    row.getDouble("tokens"),
                    this.rows.dialect.readInstant(row, "refilled_at"),
                    limit.keyRatePermits(),
                    limit.keyRatePeriodMillis(),
                    now);
            keyTokens.computeIfAbsent(limit.name(), (name) -> new HashMap<>()).put(row.getString("limit_key"), tokens);
        });
        List<LimitUse> uses = new ArrayList<>(limits.size());
        for (LimitRow limit : limits) {
            uses.add(LimitUse.of(
                    limit,
                    now,
                    byKey.getOrDefault(limit.name(), Map.of()),
                    keyTokens.getOrDefault(limit.name(), Map.of())));
        }
        return uses;
    }

    /**
     * Sets a target's limits at run time: every node claims by them from its next claim on, and no
     * node's declaration overwrites them until they are {@link #reset}. A bucket holds no more
     * tokens than its new permits.
     * @param name the target
     * @param limits the limits (their adaptation and keys are the nodes' own)
     * @param actor who sets them
     * @param now when
     */
    public void set(String name, TargetLimits limits, String actor, Instant now) {
        if (update(name, limits, actor, now)) {
            return;
        }
        try {
            // no node has claimed the target's attempts yet: its row is written, its bucket full
            this.limitRows.insert(name, limits, actor, this.rows.dialect.bindable(now));
        } catch (DuplicateKeyException ex) {
            // a node wrote its declared limits meanwhile
            if (!update(name, limits, actor, now)) {
                throw new IllegalStateException("The limits of '" + name + "' could not be written", ex);
            }
        }
    }

    /**
     * Reads what decides whether an attempt of a target may be claimed now: the limits in force,
     * the attempts running (of one key, for a limit by key) and the bucket's tokens.
     * @param name the target
     * @param key the attempt's key, for a limit counted by key, or {@code null}
     * @param now the time, for the bucket's tokens
     * @return the state, or empty if the target has no row
     */
    public Optional<SlotState> slots(String name, String key, Instant now) {
        List<LimitRow> found = this.rows.jdbc.query(this.rows.tables.sql(ROW), this::limitRow, name);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        LimitRow row = found.get(0);
        Long running = (key == null)
                ? this.rows.jdbc.queryForObject(
                        this.rows.tables.sql(
                                "SELECT COUNT(*) FROM dsched_execution WHERE status = 'RUNNING' AND job_name = ?"),
                        Long.class,
                        name)
                : this.rows.jdbc.queryForObject(
                        this.rows.tables.sql("SELECT COUNT(*) FROM dsched_execution WHERE status = 'RUNNING'"
                                + " AND job_name = ? AND COALESCE(limit_key, '') = ?"),
                        Long.class,
                        name,
                        key);
        return Optional.of(new SlotState(
                row.maxConcurrentInForce(),
                row.ratePermits(),
                row.ratePeriodMillis(),
                row.tokensAt(now),
                (running != null) ? running : 0,
                row.quotaPermits(),
                row.quotaPeriodMillis(),
                row.quotaUsedAt(now),
                row.quotaWindow(),
                row.keyRatePermits(),
                row.keyRatePeriodMillis(),
                (key != null && row.keyRatePermits() > 0) ? keyTokens(row, key, now) : row.keyRatePermits()));
    }

    /**
     * What decides whether an attempt of a target may be claimed now.
     * @param maxConcurrent the most running at once in force (of the key), or 0
     * @param ratePermits the rate's permits, or 0
     * @param ratePeriodMillis the rate's period, or 0
     * @param tokens the tokens in the bucket now
     * @param running the attempts running (of the key)
     * @param quotaPermits the quota's permits, or 0
     * @param quotaPeriodMillis the quota's period, or 0
     * @param quotaUsed the attempts claimed in the quota's window now
     * @param quotaWindow the number of the quota's window the row counts
     * @param keyRatePermits the rate of each key's permits, or 0
     * @param keyRatePeriodMillis the rate of each key's period, or 0
     * @param keyTokens the tokens the key's bucket holds now
     */
    public record SlotState(
            int maxConcurrent,
            int ratePermits,
            long ratePeriodMillis,
            double tokens,
            long running,
            int quotaPermits,
            long quotaPeriodMillis,
            int quotaUsed,
            long quotaWindow,
            int keyRatePermits,
            long keyRatePeriodMillis,
            double keyTokens) {}

    private double keyTokens(LimitRow row, String key, Instant now) {
        List<Double> tokens = this.rows.jdbc.query(
                this.rows.tables.sql(
                        "SELECT tokens, refilled_at FROM dsched_limit_key WHERE name = ? AND limit_key = ?"),
                (found, number) -> Buckets.refilled(
                        found.getDouble("tokens"),
                        this.rows.dialect.readInstant(found, "refilled_at"),
                        row.keyRatePermits(),
                        row.keyRatePeriodMillis(),
                        now),
                row.name(),
                key);
        // a key without a row has a full bucket
        return tokens.isEmpty() ? row.keyRatePermits() : tokens.get(0);
    }

    /**
     * Takes a target's limits back to those declared, which this node writes to its row.
     * @param name the target
     * @param declared the limits this node declares
     * @return whether the target had a row
     */
    public boolean reset(String name, TargetLimits declared) {
        boolean reset = update(name, declared, null, null);
        // the nodes, which remember writing their own, need not write them again
        this.limitRows.forget(name);
        return reset;
    }

    private boolean update(String name, TargetLimits limits, String actor, Instant at) {
        // a quota of another period counts its windows anew (set before the period, which MySQL
        // reads as already set in the assignments after it)
        String sql = "UPDATE dsched_limit SET " + LimitRows.NEW_QUOTA_WINDOW + ", max_concurrent = ?,"
                + " rate_permits = ?, rate_period_ms = ?, tokens = CASE WHEN tokens > ? THEN ? ELSE tokens END,"
                + " quota_permits = ?, quota_period_ms = ?, key_rate_permits = ?, key_rate_period_ms = ?, set_by = ?,"
                + " set_at = ? WHERE name = ?";
        double most = TargetLimits.permits(limits.rate());
        return this.rows.jdbc.update(
                        this.rows.tables.sql(sql),
                        TargetLimits.periodMillis(limits.quota()),
                        TargetLimits.periodMillis(limits.quota()),
                        limits.maxConcurrent(),
                        TargetLimits.permits(limits.rate()),
                        TargetLimits.periodMillis(limits.rate()),
                        most,
                        most,
                        TargetLimits.permits(limits.quota()),
                        TargetLimits.periodMillis(limits.quota()),
                        TargetLimits.permits(limits.keyRate()),
                        TargetLimits.periodMillis(limits.keyRate()),
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
        return LimitRow.read(this.rows, row);
    }

    /**
     * A row of {@code dsched_limit}: its limits, its bucket as last refilled, who set it, its quota's
     * window and its adaptive limit's state.
     */
    record LimitRow(
            String name,
            int maxConcurrent,
            int ratePermits,
            long ratePeriodMillis,
            double tokens,
            Instant refilledAt,
            String setBy,
            Instant setAt,
            int quotaPermits,
            long quotaPeriodMillis,
            long quotaWindow,
            int quotaUsed,
            AdaptiveState adaptive,
            int keyRatePermits,
            long keyRatePeriodMillis,
            TargetLimits.Adaptive adaptiveRule) {

        static LimitRow read(ExecutionRows rows, ResultSet row) throws SQLException {
            return new LimitRow(
                    row.getString("name"),
                    row.getInt("max_concurrent"),
                    row.getInt("rate_permits"),
                    row.getLong("rate_period_ms"),
                    row.getDouble("tokens"),
                    rows.dialect.readInstant(row, "refilled_at"),
                    row.getString("set_by"),
                    rows.dialect.readInstant(row, "set_at"),
                    row.getInt("quota_permits"),
                    row.getLong("quota_period_ms"),
                    row.getLong("quota_window"),
                    row.getInt("quota_used"),
                    new AdaptiveState(
                            row.getInt("adaptive_max"),
                            rows.dialect.readInstant(row, "adapted_at"),
                            row.getInt("window_outcomes"),
                            row.getInt("window_failures"),
                            row.getInt("window_signals")),
                    row.getInt("key_rate_permits"),
                    row.getLong("key_rate_period_ms"),
                    (row.getDouble("adaptive_ratio") > 0)
                            ? new TargetLimits.Adaptive(
                                    row.getDouble("adaptive_ratio"),
                                    Duration.ofMillis(row.getLong("adaptive_window_ms")),
                                    row.getInt("adaptive_min_outcomes"),
                                    row.getInt("adaptive_min"))
                            : null);
        }

        /** The bucket's tokens at a time: refilled evenly since its last refill, up to its permits. */
        double tokensAt(Instant at) {
            return Buckets.refilled(this.tokens, this.refilledAt, this.ratePermits, this.ratePeriodMillis, at);
        }

        /** The number of the quota's window a time falls in, the windows counted from the epoch. */
        long quotaWindowAt(Instant at) {
            return (this.quotaPeriodMillis > 0) ? Math.floorDiv(at.toEpochMilli(), this.quotaPeriodMillis) : 0;
        }

        /** The attempts claimed in the quota's window at a time: none in a window that has not begun. */
        int quotaUsedAt(Instant at) {
            return (quotaWindowAt(at) <= this.quotaWindow) ? this.quotaUsed : 0;
        }

        /** The most running at once in force: the adapted limit while it adapts, else the row's. */
        int maxConcurrentInForce() {
            int adapted = this.adaptive.max();
            return (adapted > 0 && this.maxConcurrent > 0) ? Math.min(adapted, this.maxConcurrent) : this.maxConcurrent;
        }
    }
}
