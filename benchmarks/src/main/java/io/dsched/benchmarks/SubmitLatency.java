package io.dsched.benchmarks;

import static io.dsched.benchmarks.Harness.WINDOW_STATISTICS_MILLIS;
import static io.dsched.benchmarks.Harness.awaitProgress;
import static io.dsched.benchmarks.Harness.pause;
import static io.dsched.benchmarks.Harness.rates;
import static io.dsched.benchmarks.Harness.stopAll;
import static io.dsched.benchmarks.Harness.sum;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;

/**
 * W5, submission latency: one-off jobs submitted at a fixed rate while 2 nodes run, and how long
 * after its submission each job's body starts. Two tables, one a shape: jobs submitted on a node
 * (each worker JVM submits every other job through its own running node, which may wake itself),
 * and jobs submitted by a client that runs no jobs, in the coordinator (no node hears of a job from
 * its own submission).
 */
final class SubmitLatency extends WorkloadRunner {

    private static final int NODES = 2;

    /** How long before the first submission the plan is sent, so that every submitter has it. */
    private static final long START_DELAY_MILLIS = 1000;

    /** Where the jobs are submitted from. */
    enum Shape {
        /** Each node submits every other job, through itself. */
        ON_A_NODE(
                "W5-node",
                "submitted on a node",
                "Each of the 2 worker JVMs submits every other job (node-1 the even indices, node-2 the odd)"
                        + " through its own running node, with the contestant's public API: a node that wakes"
                        + " itself when it stores a job due now starts it without waiting for a poll."),
        /** A client in the coordinator, which runs no jobs, submits every job. */
        BY_A_CLIENT(
                "W5-client",
                "submitted by a client",
                "The coordinator submits every job through a client of the contestant that runs no jobs"
                        + " (dsched: a node with `dsched.run-jobs=false`; db-scheduler: a `SchedulerClient`;"
                        + " JobRunr: a configuration with a storage provider and no background job server), so no"
                        + " node that runs jobs hears of one from its own submission.");

        private final String table;

        private final String title;

        private final String how;

        Shape(String table, String title, String how) {
            this.table = table;
            this.title = title;
            this.how = how;
        }
    }

    SubmitLatency(Harness harness) {
        super(harness);
    }

    void run() throws Exception {
        int rate = intOption("w5-rate", 50);
        int seconds = intOption("w5-seconds", 30);
        int warmup = intOption("w5-warmup-seconds", 5);
        List<String> contestants = contestants(Workload.W5_SUBMIT_LATENCY);
        for (Shape shape : Shape.values()) {
            Map<String, List<LatencyResult>> results = measureEach(
                    shape.table, reps("W5"), contestants, (name) -> latencyRun(name, shape, rate, warmup, seconds));
            table(shape, results, rate, warmup, seconds);
        }
    }

    private void table(Shape shape, Map<String, List<LatencyResult>> results, int rate, int warmup, int seconds) {
        line("## W5, " + shape.title + ": one-offs submitted at " + rate + "/s for " + seconds + " s ("
                + String.format(Locale.ROOT, "%,d", rate * seconds) + " measured, after a " + warmup
                + " s warm-up), " + NODES + " nodes, " + reps("W5") + " runs");
        line("");
        line("| contestant | submitted | started | missing | started twice | latency p50 ms | latency p95 ms"
                + " | latency p99 ms | latency max ms | setting for latency |");
        line("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
        results.forEach((name, runs) -> line("| " + name + " | "
                + Stats.spread(rates(runs, (run) -> (double) run.submitted()), Stats::count) + " | "
                + Stats.spread(rates(runs, (run) -> (double) run.started()), Stats::count) + " | "
                + sum(runs, LatencyResult::missing) + " | " + sum(runs, LatencyResult::startedTwice) + " | "
                + Stats.spread(rates(runs, LatencyResult::p50), Stats::millis) + " | "
                + Stats.spread(rates(runs, LatencyResult::p95), Stats::millis) + " | "
                + Stats.spread(rates(runs, LatencyResult::p99), Stats::millis) + " | "
                + Stats.spread(rates(runs, LatencyResult::max), Stats::millis) + " | "
                + Contestants.byName(name).latencySetting() + " |"));
        line("");
        line(shape.how + " Latency is when a job's body started (`Probe`, in microseconds) minus when the job was"
                + " submitted, read just before the submission call and carried in the job's key; every process"
                + " reads the same machine's clock. Job i is submitted at start + i / " + rate + " s whenever the"
                + " calls before it returned (a fixed rate: a slow call delays the calls after it, never the"
                + " schedule); the warm-up's jobs run but are not measured. Missing counts measured jobs not"
                + " started once every job had started, nothing had moved for 30 s, or 60 s had passed since the"
                + " last submission; started twice counts those whose"
                + " body started more than once, both summed over the runs; the percentiles are of a run's"
                + " started jobs. Behind schedule, below: how late the latest submission call of a run's window"
                + " started. dsched's target is a p99 under 25 ms on PostgreSQL.");
        line("");
        perRun(
                results,
                List.of(
                        Map.entry("latency p50 ms", LatencyResult::p50),
                        Map.entry("latency p99 ms", LatencyResult::p99),
                        Map.entry("latency max ms", LatencyResult::max),
                        Map.entry("behind schedule ms", LatencyResult::behindMillis)));
        notes(shape.table);
    }

    private LatencyResult latencyRun(String name, Shape shape, int rate, int warmup, int seconds) throws Exception {
        Contestant contestant = Contestants.byName(name);
        resetAll(contestant);
        int warmupJobs = warmup * rate;
        List<WorkerProcess> workers =
                startWorkers(contestant, Workload.W5_SUBMIT_LATENCY, NODES, this.threads, null, 0);
        Submitter client = null;
        FutureTask<Integer> submitting = null;
        Pacer.Plan schedule;
        int submitted;
        try {
            if (shape == Shape.BY_A_CLIENT) {
                client = contestant.client(this.db);
            }
            schedule = new Pacer.Plan(
                    System.currentTimeMillis() + START_DELAY_MILLIS,
                    warmupJobs + seconds * rate,
                    0,
                    1,
                    1_000_000L / rate);
            submitting = submit(workers, client, schedule);
            // the statistics of the tables as the first jobs have filled them: 3 s before the window,
            // or halfway through a shorter warm-up
            long window = schedule.startMillis() + warmup * 1000L;
            pause(Math.max(0, window - Math.min(WINDOW_STATISTICS_MILLIS, warmup * 500L) - System.currentTimeMillis()));
            this.db.analyze();
            submitted = submitted(
                    submitting,
                    Duration.ofMillis(window - System.currentTimeMillis()).plusSeconds(seconds + 60));
            awaitProgress(this::distinctStarted, submitted, Duration.ofSeconds(30), Duration.ofSeconds(60));
        } finally {
            if (submitting != null) {
                submitting.cancel(true);
            }
            try {
                if (client != null) {
                    client.close();
                }
            } finally {
                stopAll(workers);
            }
        }
        return measure(schedule, warmupJobs, submitted - warmupJobs);
    }

    /**
     * Starts the submissions: to each worker its share of the schedule (every {@value #NODES}th
     * job), or the whole schedule to the client, paced on a thread of its own.
     * @return how many jobs the submitters submitted, once they are done
     */
    private static FutureTask<Integer> submit(List<WorkerProcess> workers, Submitter client, Pacer.Plan schedule) {
        FutureTask<Integer> submitting;
        if (client != null) {
            submitting = new FutureTask<>(() -> Pacer.run(schedule, client));
        } else {
            for (int i = 0; i < workers.size(); i++) {
                Pacer.Plan share = new Pacer.Plan(
                        schedule.startMillis(), schedule.total(), i, workers.size(), schedule.periodMicros());
                workers.get(i).command(share.command());
            }
            Duration timeout = Duration.ofMillis(START_DELAY_MILLIS + schedule.total() * schedule.periodMicros() / 1000)
                    .plusSeconds(60);
            submitting = new FutureTask<>(() -> workers.stream()
                    .mapToInt((worker) -> worker.awaitSubmitted(timeout))
                    .sum());
        }
        Thread thread = new Thread(submitting, "bench-w5-submit");
        thread.setDaemon(true);
        thread.start();
        return submitting;
    }

    private static int submitted(FutureTask<Integer> submitting, Duration timeout) throws Exception {
        try {
            return submitting.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException ex) {
            throw (ex.getCause() instanceof Exception cause) ? cause : ex;
        }
    }

    /**
     * Reads every start from {@code bench_run}: the first start of each measured job, and any more.
     * @param schedule the whole schedule
     * @param warmupJobs the jobs of the warm-up, not measured
     * @param submitted the measured jobs submitted
     */
    private LatencyResult measure(Pacer.Plan schedule, int warmupJobs, long submitted) {
        List<Map<String, Object>> rows = jdbc().queryForList("SELECT run_key, COUNT(*) AS runs, MIN(started_us)"
                + " AS first_us FROM bench_run WHERE kind = 'S' GROUP BY run_key");
        List<Double> latencies = new ArrayList<>();
        long twice = 0;
        long behind = 0;
        for (Map<String, Object> row : rows) {
            Pacer.Key key = Pacer.Key.parse((String) row.get("run_key"));
            if (key == null || key.index() < warmupJobs) {
                continue;
            }
            twice += ((Number) row.get("runs")).longValue() - 1;
            latencies.add((((Number) row.get("first_us")).longValue() - key.submittedMicros()) / 1000.0);
            behind = Math.max(behind, key.behindMicros(schedule));
        }
        return new LatencyResult(
                submitted,
                latencies.size(),
                Math.max(0, submitted - latencies.size()),
                twice,
                Stats.percentile(latencies, 50),
                Stats.percentile(latencies, 95),
                Stats.percentile(latencies, 99),
                Stats.percentile(latencies, 100),
                behind / 1000.0);
    }

    /**
     * One run of W5.
     * @param submitted measured jobs submitted
     * @param started measured jobs started at least once
     * @param missing measured jobs never started
     * @param startedTwice starts beyond the first of a measured job
     * @param p50 median latency, ms
     * @param p95 95th percentile, ms
     * @param p99 99th percentile, ms
     * @param max largest latency, ms
     * @param behindMillis how late the latest measured submission call started against the schedule
     */
    record LatencyResult(
            long submitted,
            long started,
            long missing,
            long startedTwice,
            double p50,
            double p95,
            double p99,
            double max,
            double behindMillis) {
        @Override
        public String toString() {
            return submitted + " submitted, " + started + " started, " + missing + " missing, " + startedTwice
                    + " started twice; latency p50/p95/p99/max " + Stats.millis(p50) + "/" + Stats.millis(p95) + "/"
                    + Stats.millis(p99) + "/" + Stats.millis(max) + " ms; submissions at most "
                    + Stats.millis(behindMillis) + " ms behind schedule";
        }
    }
}
