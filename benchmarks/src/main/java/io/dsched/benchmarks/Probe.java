package io.dsched.benchmarks;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;

/**
 * What every job body of every contestant does: insert one row into {@code bench_run} with the
 * node, the job's key, its scheduled time and when the body started (in milliseconds, and in
 * microseconds from {@link #epochMicros}, the clock W5's submitters read too). For {@link
 * Workload#W3_FAILOVER} the body then holds for a while and inserts a second row, kind {@code D},
 * when it is done. For {@link Workload#W6_LIMITS} a one-off body stands for a call to a limited
 * partner: it reads the clock, holds for the call, reads the clock again and inserts one row with
 * both, the start in {@code started_us} and the end in {@code ended_us}; a shard of {@link
 * Workload#W7_SHARDS} does the same.
 */
public final class Probe {

    private static volatile HikariDataSource pool;

    private static volatile String node;

    private static volatile Duration hold = Duration.ZERO;

    private static volatile boolean calls;

    private Probe() {}

    /**
     * Opens the probe's own pool in a worker JVM.
     * @param db the database
     * @param nodeName this node
     * @param threads how many jobs run at once
     * @param holdFor how long a one-off body holds before it is done (zero for no-op bodies)
     * @param workload the workload: in {@link Workload#W6_LIMITS} a one-off body is a timed call
     */
    public static void open(BenchDatabase db, String nodeName, int threads, Duration holdFor, Workload workload) {
        pool = db.pool("bench-probe", threads);
        node = nodeName;
        hold = holdFor;
        calls = workload == Workload.W6_LIMITS;
    }

    /** Closes the pool. */
    public static void close() {
        if (pool != null) {
            pool.close();
        }
    }

    /**
     * The body of one-off job {@code key}.
     * @param key the job's key
     */
    public static void oneOff(String key) {
        if (calls) {
            call(key);
            return;
        }
        insert(key, 0, 'S');
        if (!hold.isZero()) {
            if (!holdOn()) {
                return;
            }
            insert(key, 0, 'D');
        }
    }

    /** W6's body: a call to a limited partner that takes the hold, recorded with its start and end. */
    private static void call(String key) {
        long startedMicros = epochMicros();
        if (!holdOn()) {
            return;
        }
        insert(key, 0, 'S', startedMicros, epochMicros());
    }

    /** Holds for the hold; {@code false} if interrupted. */
    private static boolean holdOn() {
        try {
            Thread.sleep(hold.toMillis());
            return true;
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * The body of recurring job {@code job} for its fire at {@code scheduledAtMillis}.
     * @param job the job's index
     * @param scheduledAtMillis the fire's scheduled time, in epoch milliseconds
     */
    public static void recurring(int job, long scheduledAtMillis) {
        insert(job + "@" + scheduledAtMillis, scheduledAtMillis, 'S');
    }

    /**
     * The body of a shard of W7's sharded job: it holds for the hold, then records its start and end
     * under the key {@code w7-<fire>#<index>}.
     * @param index the shard's index
     * @param scheduledAtMillis the fire's scheduled time, in epoch milliseconds
     */
    public static void shard(int index, long scheduledAtMillis) {
        long startedMicros = epochMicros();
        if (!holdOn()) {
            return;
        }
        insert(SHARD_KEY + scheduledAtMillis + "#" + index, scheduledAtMillis, 'S', startedMicros, epochMicros());
    }

    /** How the keys of W7's shards start. */
    static final String SHARD_KEY = "w7-";

    /**
     * Returns the wall clock in microseconds since the epoch: every process of a run is on one
     * machine, so a time read in one JVM compares with one read in another.
     * @return the time
     */
    public static long epochMicros() {
        Instant now = Instant.now();
        return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
    }

    private static void insert(String key, long scheduledAt, char kind) {
        insert(key, scheduledAt, kind, epochMicros(), null);
    }

    private static void insert(String key, long scheduledAt, char kind, long startedMicros, Long endedMicros) {
        try (Connection connection = pool.getConnection();
                PreparedStatement insert = connection.prepareStatement("INSERT INTO bench_run"
                        + " (run_key, node, scheduled_ms, started_ms, started_us, kind, ended_us)"
                        + " VALUES (?, ?, ?, ?, ?, ?, ?)")) {
            insert.setString(1, key);
            insert.setString(2, node);
            insert.setLong(3, scheduledAt);
            insert.setLong(4, startedMicros / 1_000);
            insert.setLong(5, startedMicros);
            insert.setString(6, String.valueOf(kind));
            if (endedMicros != null) {
                insert.setLong(7, endedMicros);
            } else {
                insert.setNull(7, Types.BIGINT);
            }
            insert.executeUpdate();
        } catch (SQLException ex) {
            throw new IllegalStateException("Could not record " + key, ex);
        }
    }
}
