package io.dsched.benchmarks;

import static io.dsched.benchmarks.Harness.WINDOW_STATISTICS_MILLIS;
import static io.dsched.benchmarks.Harness.close;
import static io.dsched.benchmarks.Harness.pause;
import static io.dsched.benchmarks.Harness.rates;
import static io.dsched.benchmarks.Harness.stopAll;
import static io.dsched.benchmarks.Harness.sum;
import static io.dsched.benchmarks.Harness.summary;

import java.util.List;
import java.util.Map;

/** W2, recurring accuracy: how late (or early) each fire of many recurring jobs starts. */
final class RecurringAccuracy extends WorkloadRunner {

    RecurringAccuracy(Harness harness) {
        super(harness);
    }

    void run() throws Exception {
        int jobs = intOption("w2-jobs", 500);
        int seconds = intOption("w2-seconds", 60);
        RecurringPlan plan = new RecurringPlan(jobs, "*/5 * * * * *", 5);
        List<String> contestants = contestants(Workload.W2_RECURRING);
        Map<String, List<RecurringResult>> results =
                measureEach("W2", contestants, (name) -> recurringRun(name, Workload.W2_RECURRING, plan, seconds));
        line("## W2: " + jobs + " recurring jobs on `" + plan.cron() + "` for " + seconds + " s, 2 nodes ("
                + (jobs * seconds / plan.periodSeconds()) + " fires expected per run), " + reps("W2") + " runs");
        line("");
        line("| contestant | fires seen | missing | duplicates | abs. lag p50 ms | abs. lag p99 ms | abs. lag max ms |"
                + " started early | earliest start ms | database sessions busy with |");
        line("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
        for (Map.Entry<String, List<RecurringResult>> entry : results.entrySet()) {
            List<RecurringResult> runs = entry.getValue();
            double earliest = runs.stream()
                    .mapToDouble(RecurringResult::earliest)
                    .filter((value) -> !Double.isNaN(value))
                    .min()
                    .orElse(Double.NaN);
            line("| " + entry.getKey() + " | " + Stats.spread(rates(runs, (run) -> (double) run.seen())) + " | "
                    + sum(runs, RecurringResult::missing) + " | " + sum(runs, RecurringResult::duplicates) + " | "
                    + Stats.spread(rates(runs, RecurringResult::p50)) + " | "
                    + Stats.spread(rates(runs, RecurringResult::p99)) + " | "
                    + Stats.spread(rates(runs, RecurringResult::max)) + " | "
                    + sum(runs, RecurringResult::early) + " | "
                    + (Double.isNaN(earliest) ? "none" : Stats.number(earliest)) + " | "
                    + runs.get(0).waits() + " |");
        }
        line("");
        line("Lag is when the job body first started minus the fire's scheduled time, from the first start of"
                + " each fire (a second start counts as a duplicate); its percentiles are of the absolute lag, so"
                + " that a fire started early counts as off by as much as one started late. Started early counts"
                + " the fires whose body started before their scheduled time, and the earliest start is the most"
                + " negative lag of all runs (none if no fire started early). Missing, duplicates and started early"
                + " are summed over all runs. The window starts " + intOption("w2-warmup-seconds", 20)
                + " s or more after every node is up, so that the fires which fell due while the nodes"
                + " started are not measured.");
        line("");
        perRun(
                results,
                List.of(
                        Map.entry("abs. lag p50 ms", RecurringResult::p50),
                        Map.entry("abs. lag p99 ms", RecurringResult::p99),
                        Map.entry("abs. lag max ms", RecurringResult::max),
                        Map.entry("started early", (run) -> (double) run.early())));
        endTable("W2");
    }

    private RecurringResult recurringRun(String name, Workload workload, RecurringPlan plan, int seconds)
            throws Exception {
        Contestant contestant = Contestants.byName(name);
        resetAll(contestant);
        contestant.defineRecurring(this.db, plan);
        List<WorkerProcess> workers = startWorkers(contestant, workload, 2, this.threads, plan, 0);
        WaitSampler sampler = WaitSampler.start(this.db, jdbc());
        long period = plan.periodSeconds() * 1000L;
        long from;
        long to;
        try {
            // the window starts on a period boundary at least one period and the warm-up after every
            // node is up: the burst of fires that fell due while the nodes started is not measured
            long warmup = intOption("w2-warmup-seconds", 20) * 1000L;
            from = ((System.currentTimeMillis() + warmup + period) / period + 1) * period;
            to = from + seconds * 1000L;
            pause(Math.max(0, from - WINDOW_STATISTICS_MILLIS - System.currentTimeMillis()));
            // the statistics of the tables as the nodes have filled them, as autovacuum would take them
            this.db.analyze();
            pause(Math.max(0, to - System.currentTimeMillis()) + intOption("w2-grace-seconds", 15) * 1000L);
        } finally {
            close(sampler);
            stopAll(workers);
        }
        // one key a fire (job@scheduled time): the lag of its first start
        List<Map<String, Object>> rows = jdbc().queryForList(
                        "SELECT run_key, COUNT(*) AS runs, MIN(started_ms) - MIN(scheduled_ms) AS lag FROM bench_run"
                                + " WHERE kind = 'S' AND scheduled_ms >= ? AND scheduled_ms < ? GROUP BY run_key",
                        from,
                        to);
        List<Long> lags = rows.stream()
                .map((row) -> ((Number) row.get("lag")).longValue())
                .toList();
        List<Long> absolute = lags.stream().map(Math::abs).toList();
        long early = lags.stream().filter((lag) -> lag < 0).count();
        double earliest =
                (early > 0) ? lags.stream().mapToLong(Long::longValue).min().orElseThrow() : Double.NaN;
        long duplicates = rows.stream()
                .mapToLong((row) -> ((Number) row.get("runs")).longValue() - 1)
                .sum();
        long expected = (long) plan.jobs() * (seconds / plan.periodSeconds());
        return new RecurringResult(
                rows.size(),
                Math.max(0, expected - rows.size()),
                duplicates,
                Stats.percentile(absolute, 50),
                Stats.percentile(absolute, 99),
                Stats.percentile(absolute, 100),
                early,
                earliest,
                summary(sampler));
    }

    /**
     * One run of W2.
     * @param p50 median absolute lag
     * @param p99 99th percentile of the absolute lag
     * @param max largest absolute lag
     * @param early fires started before their scheduled time
     * @param earliest the most negative lag, NaN if no fire started early
     */
    record RecurringResult(
            long seen,
            long missing,
            long duplicates,
            double p50,
            double p99,
            double max,
            long early,
            double earliest,
            String waits) {
        @Override
        public String toString() {
            return seen + " seen, " + missing + " missing, " + duplicates + " duplicates, absolute lag p50/p99/max "
                    + p50 + "/" + p99 + "/" + max + " ms, " + early + " started early"
                    + (early > 0 ? " (earliest " + (long) earliest + " ms)" : "") + "; database sessions: " + waits;
        }
    }
}
