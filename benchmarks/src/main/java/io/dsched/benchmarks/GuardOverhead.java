package io.dsched.benchmarks;

import static io.dsched.benchmarks.Harness.WINDOW_STATISTICS_MILLIS;
import static io.dsched.benchmarks.Harness.close;
import static io.dsched.benchmarks.Harness.pause;
import static io.dsched.benchmarks.Harness.rates;
import static io.dsched.benchmarks.Harness.ratio;
import static io.dsched.benchmarks.Harness.stopAll;
import static io.dsched.benchmarks.Harness.summary;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/** W4, guard overhead: fires run per second when there are more than the nodes can fire. */
final class GuardOverhead extends WorkloadRunner {

    GuardOverhead(Harness harness) {
        super(harness);
    }

    void run() throws Exception {
        int jobs = intOption("w4-jobs", 1000);
        int seconds = intOption("w4-seconds", 30);
        RecurringPlan plan = new RecurringPlan(jobs, "* * * * * *", 1);
        List<String> contestants = contestants(Workload.W4_GUARD_OVERHEAD);
        Map<String, List<SaturationResult>> results =
                measureEach("W4", contestants, (name) -> saturationRun(name, plan, seconds));
        line("## W4: " + jobs + " recurring jobs every second (more than the nodes can fire) for " + seconds
                + " s, 2 nodes, Quartz's JDBC store under both, " + reps("W4") + " runs");
        line("");
        line("| contestant | fires run per second | dsched ÷ contestant | CPU ms per fire, worker JVMs"
                + " | CPU ms per fire, database | machine busy | database sessions busy with |");
        line("| --- | --- | --- | --- | --- | --- | --- |");
        double dsched = Stats.median(rates(results.get("dsched"), SaturationResult::firesPerSecond));
        results.forEach((name, runs) -> {
            List<Double> rates = rates(runs, SaturationResult::firesPerSecond);
            List<CpuMeter.Usage> cpu = runs.stream()
                    .map(SaturationResult::cpu)
                    .filter(java.util.Objects::nonNull)
                    .toList();
            line("| " + name + " | " + Stats.spread(rates) + " | " + ratio(dsched, Stats.median(rates)) + " | "
                    + CpuMeter.spread(cpu, CpuMeter.Usage::jvmMillisPerFire) + " | "
                    + CpuMeter.spread(cpu, CpuMeter.Usage::databaseMillisPerFire) + " | "
                    + (cpu.isEmpty()
                            ? "n/a"
                            : Math.round(Stats.median(cpu.stream()
                                                    .map(CpuMeter.Usage::machineBusy)
                                                    .toList())
                                            * 100)
                                    + " %")
                    + " | " + runs.get(0).waits() + " |");
        });
        line("");
        line("CPU per fire: user and system time that the two worker JVMs, and the database server's"
                + " processes, used during the measured window (Linux's /proc), divided by the fires run in it;"
                + " median (min–max) of the runs. The window starts after a warm-up of "
                + intOption("w4-warmup-seconds", 40) + " s, once the JIT compilers have done most of their work.");
        line("");
        perRun(results, List.of(Map.entry("fires run per second", SaturationResult::firesPerSecond)));
        endTable("W4");
    }

    private SaturationResult saturationRun(String name, RecurringPlan plan, int seconds) throws Exception {
        Contestant contestant = Contestants.byName(name);
        resetAll(contestant);
        contestant.defineRecurring(this.db, plan);
        List<WorkerProcess> workers = startWorkers(contestant, Workload.W4_GUARD_OVERHEAD, 2, this.threads, plan, 0);
        WaitSampler sampler = null;
        long from;
        long to;
        CpuMeter.Reading cpuFrom;
        CpuMeter.Reading cpuTo;
        try {
            long warmup = intOption("w4-warmup-seconds", 40) * 1000L;
            pause(Math.max(0, warmup - WINDOW_STATISTICS_MILLIS));
            // the statistics of the tables as the nodes have filled them, as autovacuum would take them
            this.db.analyze();
            pause(Math.min(warmup, WINDOW_STATISTICS_MILLIS));
            sampler = WaitSampler.start(this.db, jdbc());
            from = System.currentTimeMillis();
            cpuFrom = CpuMeter.read(workers);
            to = from + seconds * 1000L;
            pause(seconds * 1000L);
            cpuTo = CpuMeter.read(workers);
            pause(1000);
        } finally {
            close(sampler);
            stopAll(workers);
        }
        Long runs = jdbc().queryForObject(
                        "SELECT COUNT(DISTINCT run_key) FROM bench_run WHERE kind = 'S' AND started_ms >= ? AND started_ms < ?",
                        Long.class,
                        from,
                        to);
        CpuMeter.Usage cpu = (cpuFrom != null && cpuTo != null && runs > 0) ? cpuTo.since(cpuFrom, runs) : null;
        return new SaturationResult(runs / (double) seconds, summary(sampler), cpu);
    }

    record SaturationResult(double firesPerSecond, String waits, CpuMeter.Usage cpu) {
        @Override
        public String toString() {
            return Stats.number(firesPerSecond) + " fires/s; database sessions: " + waits
                    + ((cpu != null)
                            ? String.format(
                                    Locale.ROOT,
                                    "; CPU per fire: worker JVMs %.2f ms, database %.2f ms; machine %.0f%% busy",
                                    cpu.jvmMillisPerFire(),
                                    cpu.databaseMillisPerFire(),
                                    cpu.machineBusy() * 100)
                            : "");
        }
    }
}
