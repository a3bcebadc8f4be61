package io.dsched.benchmarks;

import java.util.List;

/**
 * The table every job body writes to, {@code bench_run}, shared by all contestants: a row a start
 * (kind {@code S}), and for W3 a row as the body is done (kind {@code D}); W6's bodies write one row
 * with their start and their end ({@code ended_us}, empty in every other workload).
 */
public final class BenchRun {

    private BenchRun() {}

    /**
     * Drops {@code bench_run}, if it is there.
     * @param db the database
     */
    public static void drop(BenchDatabase db) {
        db.executeIgnoringErrors(List.of("DROP TABLE bench_run"));
    }

    /**
     * Drops and creates {@code bench_run}.
     * @param db the database
     */
    public static void reset(BenchDatabase db) {
        db.executeIgnoringErrors(List.of(
                "DROP TABLE bench_run",
                "CREATE TABLE bench_run (run_key VARCHAR(100) NOT NULL, node VARCHAR(50) NOT NULL,"
                        + " scheduled_ms BIGINT NOT NULL, started_ms BIGINT NOT NULL, started_us BIGINT NOT NULL,"
                        + " kind CHAR(1) NOT NULL, ended_us BIGINT)"));
    }
}
