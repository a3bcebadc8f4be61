package io.dsched.internal.store;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.dao.DuplicateKeyException;

/**
 * The limits of targets as their rows in {@code dsched_limit} hold them: each node writes those it
 * declares to a target's row once, as it first claims the target's attempts, so that the nodes of a
 * cluster claim by the limits of the node that wrote them last, unless an admin set the row's
 * limits at run time ({@code set_by}), which no node's declaration overwrites. A new row's bucket is
 * full.
 */
final class LimitRows {

    private final ExecutionRows rows;

    /** The limits this node wrote to their rows, by target. */
    private final Map<String, TargetLimits> written = new ConcurrentHashMap<>();

    /**
     * When this node last found a target's row set at run time, and wrote nothing: it tries again a
     * while later, so that once the row is reset it holds this node's declaration again.
     */
    private final Map<String, Long> heldSince = new ConcurrentHashMap<>();

    /**
     * The assignments that start a quota's count anew when its period changes, bound to the new
     * period twice; placed before the period's own assignment, which MySQL and MariaDB would
     * otherwise read as already made.
     */
    static final String NEW_QUOTA_WINDOW = "quota_window = CASE WHEN quota_period_ms = ? THEN quota_window ELSE 0 END,"
            + " quota_used = CASE WHEN quota_period_ms = ? THEN quota_used ELSE 0 END";

    /** The columns of the limits a node declares, as {@link #declared} gives their values. */
    private static final List<String> DECLARED = List.of(
            "max_concurrent",
            "rate_permits",
            "rate_period_ms",
            "quota_permits",
            "quota_period_ms",
            "key_rate_permits",
            "key_rate_period_ms",
            "adaptive_ratio",
            "adaptive_window_ms",
            "adaptive_min_outcomes",
            "adaptive_min");

    /** How long a node leaves a row set at run time before it looks whether it may write it again. */
    private static final long LOOK_AGAIN_NANOS = Duration.ofMinutes(1).toNanos();

    LimitRows(ExecutionRows rows) {
        this.rows = rows;
    }

    /** Writes the limits this node declares to the row, once: the last node to write them sets them. */
    void write(String name, TargetLimits limits) {
        if (limits.equals(this.written.get(name))) {
            return;
        }
        Long held = this.heldSince.get(name);
        if (held != null && System.nanoTime() - held < LOOK_AGAIN_NANOS) {
            return;
        }
        // the rule an adaptive limit adapts by is the declaration's; a node that declares none takes
        // an adapted limit back to the limit in force
        String update = this.rows.tables.sql("UPDATE dsched_limit SET " + NEW_QUOTA_WINDOW + ", "
                + String.join(" = ?, ", DECLARED) + " = ?"
                + ((limits.adaptive() == null) ? ", adaptive_max = 0" : "")
                + " WHERE name = ? AND set_by IS NULL");
        List<Object> bound = new ArrayList<>();
        bound.add(TargetLimits.periodMillis(limits.quota()));
        bound.add(TargetLimits.periodMillis(limits.quota()));
        bound.addAll(declared(limits));
        bound.add(name);
        Object[] values = bound.toArray();
        boolean wrote = this.rows.jdbc.update(update, values) == 1;
        if (!wrote && exists(name)) {
            // set at run time: not this node's to overwrite, but for its rule of adaptation
            writeRule(name, limits);
            this.heldSince.put(name, System.nanoTime());
            return;
        }
        if (!wrote) {
            try {
                insert(name, limits, null, null);
            } catch (DuplicateKeyException ex) {
                // another node wrote it meanwhile, with its own limits, or an admin set it
                if (this.rows.jdbc.update(update, values) == 0) {
                    this.heldSince.put(name, System.nanoTime());
                    return;
                }
            }
        }
        this.heldSince.remove(name);
        this.written.put(name, limits);
    }

    /**
     * Writes the rule of the target's adaptive limit this node declares, whoever set its limits: the
     * rule is the nodes' own, which an admin does not set; without one, an adapted limit is taken
     * back to the limit in force.
     */
    private void writeRule(String name, TargetLimits limits) {
        this.rows.jdbc.update(
                this.rows.tables.sql("UPDATE dsched_limit SET adaptive_ratio = ?, adaptive_window_ms = ?,"
                        + " adaptive_min_outcomes = ?, adaptive_min = ?"
                        + ((limits.adaptive() == null) ? ", adaptive_max = 0" : "") + " WHERE name = ?"),
                declared(limits).get(7),
                declared(limits).get(8),
                declared(limits).get(9),
                declared(limits).get(10),
                name);
    }

    /**
     * Writes a new row: its bucket full, its quota's window unused.
     * @param actor who set the limits at run time, or {@code null} for a node's declaration
     * @param at when they were set, or {@code null}
     */
    void insert(String name, TargetLimits limits, String actor, Object at) {
        String now = this.rows.dialect.currentTimestampSql();
        List<Object> bound = new ArrayList<>();
        bound.add(name);
        bound.addAll(declared(limits));
        bound.add((double) TargetLimits.permits(limits.rate()));
        bound.add(actor);
        bound.add(at);
        this.rows.jdbc.update(
                this.rows.tables.sql("INSERT INTO dsched_limit (name, " + String.join(", ", DECLARED)
                        + ", tokens, refilled_at, created_at, set_by, set_at) VALUES (?, "
                        + "?, ".repeat(DECLARED.size()) + "?, " + now + ", " + now + ", ?, ?)"),
                bound.toArray());
    }

    /** The values of the {@link #DECLARED} columns. */
    private static List<Object> declared(TargetLimits limits) {
        TargetLimits.Adaptive adaptive = limits.adaptive();
        return Arrays.asList(
                limits.maxConcurrent(),
                TargetLimits.permits(limits.rate()),
                TargetLimits.periodMillis(limits.rate()),
                TargetLimits.permits(limits.quota()),
                TargetLimits.periodMillis(limits.quota()),
                TargetLimits.permits(limits.keyRate()),
                TargetLimits.periodMillis(limits.keyRate()),
                (adaptive != null) ? adaptive.failureRatio() : 0.0,
                (adaptive != null) ? adaptive.window().toMillis() : 0L,
                (adaptive != null) ? adaptive.minOutcomes() : 0,
                (adaptive != null) ? adaptive.min() : 0);
    }

    private boolean exists(String name) {
        Integer rows = this.rows.jdbc.queryForObject(
                this.rows.tables.sql("SELECT COUNT(*) FROM dsched_limit WHERE name = ?"), Integer.class, name);
        return rows != null && rows > 0;
    }

    /** Forgets that this node wrote a target's row, which is gone: the next claim writes it again. */
    void forget(String name) {
        this.written.remove(name);
        this.heldSince.remove(name);
    }
}
