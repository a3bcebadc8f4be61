package io.dsched.benchmarks;

import java.util.List;

/** The table every job body writes to, {@code bench_run}, shared by all contestants. */
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
                        + " kind CHAR(1) NOT NULL)"));
    }
}
