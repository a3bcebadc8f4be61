package io.dsched.benchmarks;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.springframework.jdbc.core.JdbcTemplate;

/** A workload: the {@link Harness} it runs in, under the short names its code uses. */
abstract class WorkloadRunner {

    private final Harness harness;

    /** The database. */
    final BenchDatabase db;

    /** Worker threads of each node. */
    final int threads;

    WorkloadRunner(Harness harness) {
        this.harness = harness;
        this.db = harness.db();
        this.threads = harness.threads();
    }

    final JdbcTemplate jdbc() {
        return this.harness.jdbc();
    }

    final void line(String text) {
        this.harness.line(text);
    }

    final String option(String name, String fallback) {
        return this.harness.option(name, fallback);
    }

    final int intOption(String name, int fallback) {
        return this.harness.intOption(name, fallback);
    }

    final int reps(String workload) {
        return this.harness.reps(workload);
    }

    final List<String> contestants(Workload workload) {
        return this.harness.contestants(workload);
    }

    /**
     * Measures every contestant once a repetition, the order rotated at each ({@link
     * Harness#rotated}); a contestant that cannot run is noted and not run again (the runs it
     * completed before stay in the results).
     * @param workload the workload, for the repetitions and the notes
     * @param contestants the contestants, in their table order
     * @param measurement one run of a contestant
     * @return each contestant's runs, in the contestants' table order
     */
    final <R> Map<String, List<R>> measureEach(String workload, List<String> contestants, Measurement<R> measurement) {
        return measureEach(workload, reps(workload), contestants, measurement);
    }

    /**
     * Measures every contestant as {@link #measureEach(String, List, Measurement)} does, for one
     * table of a workload that has several (W5's shapes): a contestant that cannot run in one
     * table still runs in the others.
     * @param table the table, for the progress lines and the notes, such as {@code W5-node}
     * @param reps the repetitions
     * @param contestants the contestants, in their table order
     * @param measurement one run of a contestant
     * @return each contestant's runs, in the contestants' table order
     */
    final <R> Map<String, List<R>> measureEach(
            String table, int reps, List<String> contestants, Measurement<R> measurement) {
        Map<String, List<R>> results = new LinkedHashMap<>();
        for (int rep = 0; rep < reps; rep++) {
            for (String name : Harness.rotated(contestants, rep)) {
                this.harness.attempt(table, name, rep, results, () -> measurement.measure(name));
            }
        }
        return results;
    }

    /** One run of a contestant in a workload. */
    @FunctionalInterface
    interface Measurement<R> {

        /**
         * Runs and measures the contestant once.
         * @param contestant its name
         * @return what was measured
         * @throws Exception if it could not run
         */
        R measure(String contestant) throws Exception;
    }

    final <R> void perRun(Map<String, List<R>> results, List<Map.Entry<String, Function<R, Double>>> columns) {
        this.harness.perRun(results, columns);
    }

    final void endTable(String workload) {
        this.harness.endTable(workload);
    }

    final void notes(String workload) {
        this.harness.notes(workload);
    }

    final void resetAll(Contestant contestant) throws Exception {
        this.harness.resetAll(contestant);
    }

    final List<WorkerProcess> startWorkers(
            Contestant contestant, Workload workload, int nodes, int threads, RecurringPlan plan, long holdMillis)
            throws Exception {
        return this.harness.startWorkers(contestant, workload, nodes, threads, plan, holdMillis);
    }

    final long distinctStarted() {
        return this.harness.distinctStarted();
    }
}
