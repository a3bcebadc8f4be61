package io.dsched.benchmarks;

import static io.dsched.benchmarks.Harness.awaitProgress;
import static io.dsched.benchmarks.Harness.rates;
import static io.dsched.benchmarks.Harness.stopAll;
import static io.dsched.benchmarks.Harness.sum;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * W6, limits: one-offs due at once for a handler whose body stands for a call to a limited partner,
 * dsched's under a cluster-wide limit its handler declares ({@code maxConcurrent} in one table,
 * {@code rate} in the other), the peers' under none, since they have none: how far over the limit
 * each goes. Every body records its start and end ({@link Probe}); the most bodies at once comes
 * from those intervals, the most starts in a second from their starts.
 */
final class LimitOvershoot extends WorkloadRunner {

    private static final int NODES = 3;

    LimitOvershoot(Harness harness) {
        super(harness);
    }

    void run() throws Exception {
        int jobs = intOption("w6-jobs", 1000);
        int callMillis = intOption("w6-call-ms", 50);
        int maxSeconds = intOption("w6-max-seconds", 120);
        List<String> contestants = contestants(Workload.W6_LIMITS);
        for (LimitShape shape : LimitShape.values()) {
            Map<String, List<LimitResult>> results = measureEach(
                    table(shape),
                    reps("W6"),
                    contestants,
                    (name) -> limitRun(name, shape, jobs, callMillis, maxSeconds));
            table(shape, results, jobs, callMillis, maxSeconds);
        }
    }

    private static String table(LimitShape shape) {
        return switch (shape) {
            case CONCURRENCY -> "W6-concurrency";
            case RATE -> "W6-rate";
        };
    }

    private static String title(LimitShape shape) {
        return switch (shape) {
            case CONCURRENCY -> "concurrency: dsched's handler at `maxConcurrent = " + LimitShape.MAX_CONCURRENT + "`";
            case RATE -> "rate: dsched's handler at `rate = \"" + LimitShape.RATE_LIMIT + "\"`";
        };
    }

    private static String mostColumn(LimitShape shape) {
        return switch (shape) {
            case CONCURRENCY -> "most at once";
            case RATE -> "most starts in 1 s";
        };
    }

    private static String how(LimitShape shape) {
        return switch (shape) {
            case CONCURRENCY ->
                "Most at once: the most bodies between their start and end at one moment, by a sweep"
                        + " over the starts and ends in time order (an end before a start at the same microsecond);"
                        + " overshoot: that minus " + LimitShape.MAX_CONCURRENT + ", 0 if not above. dsched counts an"
                        + " attempt against the limit from its claim until its outcome is written, so its bodies can"
                        + " never be more than " + LimitShape.MAX_CONCURRENT + ". Least the limit allows: waves of "
                        + LimitShape.MAX_CONCURRENT + " calls one after the other.";
            case RATE ->
                "Most starts in 1 s: the most body starts in any window of 1 s, from a start up to 1 s"
                        + " later, not included; overshoot: that minus " + shape.bound() + ", 0 if not above. dsched's"
                        + " token bucket holds " + LimitShape.RATE_PERMITS + " permits and refills "
                        + LimitShape.RATE_LIMIT + "; it is full when the handler's first attempt is claimed, so a burst"
                        + " of " + LimitShape.RATE_PERMITS
                        + " may start at once, and any 1 s may see that burst and the "
                        + LimitShape.RATE_PERMITS + " permits refilled over it: " + shape.bound() + ". A permit is"
                        + " taken as an attempt is claimed, and its body starts a few milliseconds later. Least the"
                        + " limit allows: the burst, then the rest at " + LimitShape.RATE_LIMIT + ".";
        };
    }

    private void table(
            LimitShape shape, Map<String, List<LimitResult>> results, int jobs, int callMillis, int maxSeconds) {
        line("## W6, " + title(shape) + ", " + String.format(Locale.ROOT, "%,d", jobs) + " one-offs due at once,"
                + " each a " + callMillis + " ms call, " + NODES + " nodes of " + this.threads + " threads, "
                + reps("W6") + " runs");
        line("");
        line("| contestant | jobs run | missing | duplicates | " + mostColumn(shape) + " | overshoot over "
                + shape.bound() + " | first to last start s | least the limit allows s | limit |");
        line("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
        results.forEach((name, runs) -> {
            Contestant contestant = Contestants.byName(name);
            line("| " + name + " | " + Stats.spread(rates(runs, (run) -> (double) run.run()), Stats::count) + " | "
                    + sum(runs, LimitResult::missing) + " | " + sum(runs, LimitResult::duplicates) + " | "
                    + Stats.spread(rates(runs, (run) -> (double) run.most()), Stats::count) + " | "
                    + Stats.spread(rates(runs, (run) -> (double) run.overshoot()), Stats::count) + " | "
                    + Stats.spread(rates(runs, LimitResult::firstToLastSeconds), LimitOvershoot::seconds) + " | "
                    + (contestant.declaresLimits() ? seconds(shape.leastSeconds(jobs, callMillis)) : "no limit")
                    + " | " + contestant.limitSetting(shape) + " |");
        });
        line("");
        line("The coordinator stores the jobs with no node running, as in W1 (dsched: for a handler that declares"
                + " the limit; the peers: their plain job, having no limit), then " + NODES + " nodes start. Each"
                + " body reads the clock (microseconds, the wall clock every process of the run shares), sleeps "
                + callMillis + " ms for the call, reads it again and records both in `bench_run`. " + how(shape)
                + " Missing counts jobs never run, duplicates bodies run more than once for a job, both summed"
                + " over the runs; a run stops once every job has run, nothing has for 60 s, or after " + maxSeconds
                + " s. Median (min–max) of the runs; every run's below.");
        line("");
        perRun(
                results,
                List.of(
                        Map.entry(mostColumn(shape), (run) -> (double) run.most()),
                        Map.entry("overshoot", (run) -> (double) run.overshoot()),
                        Map.entry("first to last start s", LimitResult::firstToLastSeconds)));
        notes(table(shape));
    }

    private LimitResult limitRun(String name, LimitShape shape, int jobs, int callMillis, int maxSeconds)
            throws Exception {
        Contestant contestant = Contestants.byName(name);
        resetAll(contestant);
        contestant.enqueueLimited(this.db, jobs, shape);
        List<WorkerProcess> workers =
                startWorkers(contestant, Workload.W6_LIMITS, NODES, this.threads, null, callMillis);
        try {
            awaitProgress(this::distinctStarted, jobs, Duration.ofSeconds(60), Duration.ofSeconds(maxSeconds));
        } finally {
            stopAll(workers);
        }
        List<Call> calls = jdbc().query(
                        "SELECT run_key, started_us, ended_us FROM bench_run WHERE kind = 'S'",
                        (row, index) -> new Call(row.getString(1), row.getLong(2), row.getLong(3)));
        return LimitResult.of(calls, jobs, shape);
    }

    /**
     * Returns the most calls running at one moment: a sweep over their starts and ends in time order,
     * each call from its start up to, not including, its end, so that a call that ends at the
     * microsecond another starts is not counted beside it.
     * @param calls the calls
     * @return the most at once, 0 for none
     */
    static int mostAtOnce(List<Call> calls) {
        long[] starts = calls.stream().mapToLong(Call::startMicros).sorted().toArray();
        long[] ends = calls.stream().mapToLong(Call::endMicros).sorted().toArray();
        int running = 0;
        int most = 0;
        int ended = 0;
        for (long start : starts) {
            while (ended < ends.length && ends[ended] <= start) {
                running--;
                ended++;
            }
            running++;
            most = Math.max(most, running);
        }
        return most;
    }

    /**
     * Returns the most starts in any window of a given length: each window from a start up to, not
     * including, that start plus the length (the busiest window begins at a start).
     * @param starts the starts, in microseconds, in any order
     * @param windowMicros the length of a window
     * @return the most starts, 0 for none
     */
    static int mostStartsWithin(List<Long> starts, long windowMicros) {
        long[] sorted = starts.stream().mapToLong(Long::longValue).sorted().toArray();
        int most = 0;
        int end = 0;
        for (int first = 0; first < sorted.length; first++) {
            while (end < sorted.length && sorted[end] < sorted[first] + windowMicros) {
                end++;
            }
            most = Math.max(most, end - first);
        }
        return most;
    }

    /**
     * Returns how far a count goes over a bound.
     * @param most the count
     * @param bound the bound
     * @return the count minus the bound, 0 if not above
     */
    static int overshoot(int most, int bound) {
        return Math.max(0, most - bound);
    }

    private static String seconds(double value) {
        return Double.isNaN(value) ? "n/a" : String.format(Locale.ROOT, "%,.2f", value);
    }

    /**
     * One body's run, as it recorded it.
     * @param key the job's key
     * @param startMicros when it started, in epoch microseconds
     * @param endMicros when it ended, in epoch microseconds
     */
    record Call(String key, long startMicros, long endMicros) {}

    /**
     * One run of W6.
     * @param run jobs run at least once
     * @param missing jobs never run
     * @param duplicates bodies run beyond the first of a job
     * @param most the most bodies at once, or the most starts in 1 s, by the shape
     * @param overshoot how far {@code most} goes over the shape's bound
     * @param firstToLastSeconds from the first body's start to the last one's
     */
    record LimitResult(long run, long missing, long duplicates, int most, int overshoot, double firstToLastSeconds) {

        static LimitResult of(List<Call> calls, int jobs, LimitShape shape) {
            long run = calls.stream().map(Call::key).distinct().count();
            int most =
                    switch (shape) {
                        case CONCURRENCY -> mostAtOnce(calls);
                        case RATE ->
                            mostStartsWithin(
                                    calls.stream().map(Call::startMicros).toList(), LimitShape.RATE_WINDOW_MICROS);
                    };
            double firstToLast = calls.isEmpty()
                    ? Double.NaN
                    : (calls.stream().mapToLong(Call::startMicros).max().getAsLong()
                                    - calls.stream()
                                            .mapToLong(Call::startMicros)
                                            .min()
                                            .getAsLong())
                            / 1e6;
            return new LimitResult(
                    run,
                    Math.max(0, jobs - run),
                    calls.size() - run,
                    most,
                    LimitOvershoot.overshoot(most, shape.bound()),
                    firstToLast);
        }

        @Override
        public String toString() {
            return run + " run, " + missing + " missing, " + duplicates + " duplicates; most " + most + ", overshoot "
                    + overshoot + "; first to last start " + seconds(firstToLastSeconds) + " s";
        }
    }
}
