package io.dsched.internal.store;

import java.time.Duration;
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
    private final Map<String, Limits> written = new ConcurrentHashMap<>();

    /**
     * When this node last found a target's row set at run time, and wrote nothing: it tries again a
     * while later, so that once the row is reset it holds this node's declaration again.
     */
    private final Map<String, Long> heldSince = new ConcurrentHashMap<>();

    /** How long a node leaves a row set at run time before it looks whether it may write it again. */
    private static final long LOOK_AGAIN_NANOS = Duration.ofMinutes(1).toNanos();

    LimitRows(ExecutionRows rows) {
        this.rows = rows;
    }

    /** Writes the limits this node declares to the row, once: the last node to write them sets them. */
    void write(String name, Limits limits) {
        if (limits.equals(this.written.get(name))) {
            return;
        }
        Long held = this.heldSince.get(name);
        if (held != null && System.nanoTime() - held < LOOK_AGAIN_NANOS) {
            return;
        }
        String update = this.rows.tables.sql(
                "UPDATE dsched_limit SET max_concurrent = ?, rate_permits = ?, rate_period_ms = ? WHERE name = ?"
                        + " AND set_by IS NULL");
        Object[] values = {limits.maxConcurrent(), limits.ratePermits(), limits.ratePeriodMillis(), name};
        boolean wrote = this.rows.jdbc.update(update, values) == 1;
        if (!wrote && exists(name)) {
            // set at run time: not this node's to overwrite
            this.heldSince.put(name, System.nanoTime());
            return;
        }
        if (!wrote) {
            try {
                // a new bucket is full
                this.rows.jdbc.update(
                        this.rows.tables.sql("INSERT INTO dsched_limit (name, max_concurrent, rate_permits,"
                                + " rate_period_ms, tokens, refilled_at, created_at) VALUES (?, ?, ?, ?, ?, "
                                + this.rows.dialect.currentTimestampSql() + ", "
                                + this.rows.dialect.currentTimestampSql() + ")"),
                        name,
                        limits.maxConcurrent(),
                        limits.ratePermits(),
                        limits.ratePeriodMillis(),
                        (double) limits.ratePermits());
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

    /**
     * The limits of a target.
     * @param maxConcurrent the most of its attempts running at once, or 0
     * @param ratePermits the most of its attempts started per period, or 0
     * @param ratePeriod the period, or {@code null}
     */
    record Limits(int maxConcurrent, int ratePermits, Duration ratePeriod) {

        long ratePeriodMillis() {
            return (this.ratePeriod != null) ? this.ratePeriod.toMillis() : 0;
        }
    }
}
