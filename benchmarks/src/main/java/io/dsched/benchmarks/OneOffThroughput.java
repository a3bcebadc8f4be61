package io.dsched.benchmarks;

import static io.dsched.benchmarks.Harness.awaitProgress;
import static io.dsched.benchmarks.Harness.close;
import static io.dsched.benchmarks.Harness.pause;
import static io.dsched.benchmarks.Harness.progress;
import static io.dsched.benchmarks.Harness.rates;
import static io.dsched.benchmarks.Harness.ratio;
import static io.dsched.benchmarks.Harness.rotated;
import static io.dsched.benchmarks.Harness.stopAll;
import static io.dsched.benchmarks.Harness.sum;
import static io.dsched.benchmarks.Harness.summary;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.ToDoubleFunction;

/**
 * W1, one-off throughput: jobs stored with no node running, then run by the nodes as fast as they
 * can; and the scale runs, W1 on 1, 2 and 4 nodes.
 */
final class OneOffThroughput extends WorkloadRunner {

    OneOffThroughput(Harness harness) {
        super(harness);
    }

    void w1() throws Exception {
        int jobs = intOption("w1-jobs", 20_000);
        List<String> contestants = contestants(Workload.W1_ONE_OFF);
        Map<String, List<W1Result>> results = measureEach("W1", contestants, (name) -> oneOffRun(name, jobs, 2));
        line("## W1: " + String.format(Locale.ROOT, "%,d", jobs) + " one-off jobs due at once, 2 nodes, " + reps("W1")
                + " runs");
        line("");
        line("| contestant | executions/s | starts/s | enqueue/s | duplicates | missing | not completed |"
                + " dsched ÷ contestant | CPU ms per job, worker JVMs | CPU ms per job, database"
                + " | CPU ms per job, worker JVMs without JIT compilers | database sessions busy with |");
        line("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |");
        double dsched = Stats.median(rates(results.get("dsched"), W1Result::executionsPerSecond));
        for (Map.Entry<String, List<W1Result>> entry : results.entrySet()) {
            List<Double> rates = rates(entry.getValue(), W1Result::executionsPerSecond);
            line("| " + entry.getKey() + " | " + Stats.spread(rates) + " | "
                    + Stats.spread(rates(entry.getValue(), W1Result::startsPerSecond)) + " | "
                    + Stats.spread(rates(entry.getValue(), W1Result::enqueuePerSecond)) + " | "
                    + sum(entry.getValue(), W1Result::duplicates) + " | " + sum(entry.getValue(), W1Result::missing)
                    + " | " + sum(entry.getValue(), W1Result::notCompleted) + " | "
                    + ratio(dsched, Stats.median(rates)) + " | "
                    + CpuMeter.spread(cpu(entry.getValue(), W1Result::cpu), CpuMeter.Usage::jvmMillisPerFire) + " | "
                    + CpuMeter.spread(cpu(entry.getValue(), W1Result::cpu), CpuMeter.Usage::databaseMillisPerFire)
                    + " | "
                    + CpuMeter.spread(
                            cpu(entry.getValue(), W1Result::cpu), CpuMeter.Usage::jvmWithoutCompilersMillisPerFire)
                    + " | "
                    + entry.getValue().get(0).waits() + " |");
        }
        line("");
        line("Executions/s is the jobs whose completion the contestant has committed to the database, over the"
                + " time from the first body's start until the coordinator, polling every 50 ms once every job has"
                + " started, first sees them all completed (dsched: `dsched_execution` rows SUCCEEDED; db-scheduler:"
                + " its one-time rows gone from `scheduled_tasks`; Quartz: the one-off triggers gone; JobRunr:"
                + " `jobrunr_jobs` SUCCEEDED). Starts/s is the jobs over the time from the first body's start to the"
                + " last one's. Missing counts jobs not started when the run ended, not completed those started but"
                + " not seen completed: a run stops once nothing has moved for 60 s, or after "
                + intOption("w1-max-seconds", 150) + " s; both rates are measured over what ran. CPU per job: user and"
                + " system time that the two worker JVMs, and the database server's processes, used (Linux's /proc)"
                + " from the moment the coordinator first sees half the jobs started until every job is seen"
                + " completed, divided by the jobs started in that time: the steady state, once the JIT compilers"
                + " have done most of their work; without JIT compilers, the same without the JVMs' C1 and C2"
                + " compiler threads, a cost a long-running node pays once. Median (min–max) of the runs; every run's below, with the"
                + " worker JVMs' CPU per job from the moment every node has started and said so.");
        line("");
        perRun(
                results,
                List.of(
                        Map.entry("executions/s", W1Result::executionsPerSecond),
                        Map.entry("starts/s", W1Result::startsPerSecond),
                        Map.entry("enqueue/s", W1Result::enqueuePerSecond),
                        Map.entry(
                                "CPU µs per job, worker JVMs",
                                (run) -> micros(run.cpu(), CpuMeter.Usage::jvmMillisPerFire)),
                        Map.entry(
                                "CPU µs per job, worker JVMs, from ready",
                                (run) -> micros(run.cpuFromReady(), CpuMeter.Usage::jvmMillisPerFire))));
        endTable("W1");
    }

    private W1Result oneOffRun(String name, int jobs, int nodes) throws Exception {
        Contestant contestant = Contestants.byName(name);
        resetAll(contestant);
        double enqueueSeconds = contestant.enqueue(this.db, jobs).toNanos() / 1e9;
        List<WorkerProcess> workers = startWorkers(contestant, Workload.W1_ONE_OFF, nodes, this.threads, null, 0);
        CpuMeter.Window fromReady = CpuMeter.Window.open(workers);
        CpuMeter.Window[] secondHalf = {null};
        CpuMeter.Reading cpuTo;
        WaitSampler sampler = WaitSampler.start(this.db, jdbc());
        long[] completion;
        try {
            // a contestant far slower than the others is measured over a bounded time
            long deadline = System.currentTimeMillis() + intOption("w1-max-seconds", 150) * 1000L;
            awaitProgress(
                    () -> {
                        long started = distinctStarted();
                        if (secondHalf[0] == null && started >= jobs / 2) {
                            secondHalf[0] = CpuMeter.Window.open(workers);
                        }
                        return started;
                    },
                    jobs,
                    Duration.ofSeconds(60),
                    Duration.ofSeconds(intOption("w1-max-seconds", 150)));
            completion = awaitCompletion(contestant, jobs, Math.max(deadline, System.currentTimeMillis() + 10_000));
            cpuTo = CpuMeter.read(workers);
        } finally {
            close(sampler);
            stopAll(workers);
        }
        Map<String, Object> row = jdbc().queryForMap(
                        "SELECT COUNT(*) AS total, COUNT(DISTINCT run_key) AS distinct_keys, MIN(started_ms) AS first_ms,"
                                + " MAX(started_ms) AS last_ms FROM bench_run WHERE kind = 'S'");
        long total = ((Number) row.get("total")).longValue();
        long distinct = ((Number) row.get("distinct_keys")).longValue();
        long first = ((Number) row.get("first_ms")).longValue();
        double seconds = (((Number) row.get("last_ms")).longValue() - first) / 1000.0;
        double toCompletion = (completion[1] - first) / 1000.0;
        return new W1Result(
                jobs / enqueueSeconds,
                completion[0] / Math.max(toCompletion, 0.001),
                distinct / Math.max(seconds, 0.001),
                total - distinct,
                jobs - distinct,
                Math.max(0, distinct - completion[0]),
                usage(secondHalf[0], cpuTo),
                usage(fromReady, cpuTo),
                summary(sampler));
    }

    /** CPU per job from a window's start to a reading, over the jobs started since; or null. */
    private CpuMeter.Usage usage(CpuMeter.Window window, CpuMeter.Reading to) {
        if (window == null || window.from() == null || to == null) {
            return null;
        }
        Long started = jdbc().queryForObject(
                        "SELECT COUNT(DISTINCT run_key) FROM bench_run WHERE kind = 'S' AND started_ms >= ?",
                        Long.class,
                        window.fromMillis());
        return (started > 0) ? to.since(window.from(), started) : null;
    }

    /**
     * Polls the contestant's count of durably completed one-offs until it reaches the jobs, stops
     * moving for 60 s, or the deadline passes.
     * @return the count, and when it was first seen at that value (epoch milliseconds)
     */
    private long[] awaitCompletion(Contestant contestant, int jobs, long deadlineMillis) {
        long count = -1;
        long at = System.currentTimeMillis();
        while (true) {
            long now = contestant.completedOneOffs(jdbc(), jobs);
            long time = System.currentTimeMillis();
            if (now != count) {
                count = now;
                at = time;
            }
            if (count >= jobs || time > deadlineMillis || time - at > 60_000) {
                if (count < jobs) {
                    progress("  " + count + " of " + jobs + " seen completed; measuring what completed");
                }
                return new long[] {count, at};
            }
            pause(50);
        }
    }

    /**
     * One run of W1.
     * @param enqueuePerSecond jobs stored per second of the submission calls
     * @param executionsPerSecond jobs durably completed per second, from the first start
     * @param startsPerSecond jobs started per second, from the first start to the last
     * @param duplicates starts beyond the first of a job
     * @param missing jobs never started
     * @param notCompleted jobs started but not seen completed
     * @param cpu CPU used per job from half the jobs started, or {@code null} without {@code /proc}
     * @param cpuFromReady CPU used per job from the nodes ready, or {@code null} without {@code /proc}
     * @param waits what the database sessions were busy with
     */
    record W1Result(
            double enqueuePerSecond,
            double executionsPerSecond,
            double startsPerSecond,
            long duplicates,
            long missing,
            long notCompleted,
            CpuMeter.Usage cpu,
            CpuMeter.Usage cpuFromReady,
            String waits) {
        @Override
        public String toString() {
            return Stats.number(executionsPerSecond) + " exec/s to durable completion, " + Stats.number(startsPerSecond)
                    + " starts/s, " + Stats.number(enqueuePerSecond) + " enqueue/s, " + duplicates + " duplicates, "
                    + missing + " missing, " + notCompleted + " not completed; database sessions: " + waits
                    + cpu("second half", cpu) + cpu("from ready", cpuFromReady);
        }

        private static String cpu(String window, CpuMeter.Usage usage) {
            return (usage != null)
                    ? String.format(
                            Locale.ROOT,
                            "; CPU per job, %s: worker JVMs %.3f ms (JIT compilers %.3f ms), database %.3f ms",
                            window,
                            usage.jvmMillisPerFire(),
                            usage.compilerMillisPerFire(),
                            usage.databaseMillisPerFire())
                    : "";
        }
    }

    private static double micros(CpuMeter.Usage usage, ToDoubleFunction<CpuMeter.Usage> millis) {
        return (usage != null) ? millis.applyAsDouble(usage) * 1000 : Double.NaN;
    }

    private static List<CpuMeter.Usage> cpu(List<W1Result> runs, Function<W1Result, CpuMeter.Usage> which) {
        return runs.stream().map(which).filter(Objects::nonNull).toList();
    }

    void scale() throws Exception {
        int jobs = intOption("w1-jobs", 20_000);
        List<Integer> nodeCounts = List.of(option("scale-nodes", "1,2,4").split(",")).stream()
                .map(String::trim)
                .map(Integer::valueOf)
                .toList();
        List<String> contestants = List.of(option("scale-contestants", "dsched").split(","));
        line("## Scale: W1 (" + String.format(Locale.ROOT, "%,d", jobs) + " one-offs) on 1, 2 and 4 nodes of "
                + this.threads + " threads, " + reps("SCALE") + " runs each");
        line("");
        line("| contestant | nodes | executions/s | database sessions busy with |");
        line("| --- | --- | --- | --- |");
        // every (contestant, nodes) pair once a repetition, in an order that rotates
        List<Map.Entry<String, Integer>> cases = new ArrayList<>();
        for (String name : contestants) {
            for (int nodes : nodeCounts) {
                cases.add(Map.entry(name, nodes));
            }
        }
        Map<Map.Entry<String, Integer>, List<W1Result>> results = new LinkedHashMap<>();
        for (int rep = 0; rep < reps("SCALE"); rep++) {
            for (Map.Entry<String, Integer> run : rotated(cases, rep)) {
                W1Result result = oneOffRun(run.getKey(), jobs, run.getValue());
                progress("Scale " + run.getKey() + " " + run.getValue() + " nodes run " + (rep + 1) + ": " + result);
                results.computeIfAbsent(run, (ignored) -> new ArrayList<>()).add(result);
            }
        }
        for (Map.Entry<String, Integer> run : cases) {
            List<W1Result> runs = results.get(run);
            line("| " + run.getKey() + " | " + run.getValue() + " | "
                    + Stats.spread(rates(runs, W1Result::executionsPerSecond)) + " | "
                    + runs.get(0).waits() + " |");
        }
        line("");
        Map<String, List<W1Result>> byCase = new LinkedHashMap<>();
        results.forEach((run, runs) -> byCase.put(run.getKey() + ", " + run.getValue() + " nodes", runs));
        perRun(byCase, List.of(Map.entry("executions/s", W1Result::executionsPerSecond)));
    }
}
