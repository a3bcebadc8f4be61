package io.dsched.benchmarks;

import static io.dsched.benchmarks.Harness.awaitProgress;
import static io.dsched.benchmarks.Harness.close;
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
        Map<String, List<W1Result>> results = new LinkedHashMap<>();
        for (int rep = 0; rep < reps("W1"); rep++) {
            for (String name : rotated(contestants, rep)) {
                attempt("W1", name, rep, results, () -> oneOffRun(name, jobs, 2));
            }
        }
        line("## W1: " + String.format(Locale.ROOT, "%,d", jobs) + " one-off jobs due at once, 2 nodes, " + reps("W1")
                + " runs");
        line("");
        line("| contestant | executions/s | enqueue/s | duplicates | missing | dsched ÷ contestant |"
                + " database sessions busy with |");
        line("| --- | --- | --- | --- | --- | --- | --- |");
        double dsched = Stats.median(rates(results.get("dsched"), W1Result::executionsPerSecond));
        for (Map.Entry<String, List<W1Result>> entry : results.entrySet()) {
            List<Double> rates = rates(entry.getValue(), W1Result::executionsPerSecond);
            line("| " + entry.getKey() + " | " + Stats.spread(rates) + " | "
                    + Stats.spread(rates(entry.getValue(), W1Result::enqueuePerSecond)) + " | "
                    + sum(entry.getValue(), W1Result::duplicates) + " | " + sum(entry.getValue(), W1Result::missing)
                    + " | " + ratio(dsched, Stats.median(rates)) + " | "
                    + entry.getValue().get(0).waits() + " |");
        }
        line("");
        line("Missing counts jobs not run when the run ended: a run stops once no job has started for 60 s, or"
                + " after " + intOption("w1-max-seconds", 150) + " s; executions/s is measured over what ran.");
        line("");
        perRun(
                results,
                List.of(
                        Map.entry("executions/s", W1Result::executionsPerSecond),
                        Map.entry("enqueue/s", W1Result::enqueuePerSecond)));
        endTable("W1");
    }

    private W1Result oneOffRun(String name, int jobs, int nodes) throws Exception {
        Contestant contestant = Contestants.byName(name);
        resetAll(contestant);
        double enqueueSeconds = contestant.enqueue(this.db, jobs).toNanos() / 1e9;
        List<WorkerProcess> workers = startWorkers(contestant, Workload.W1_ONE_OFF, nodes, this.threads, null, 0);
        WaitSampler sampler = WaitSampler.start(this.db, jdbc());
        try {
            // a contestant far slower than the others is measured over a bounded time
            awaitProgress(
                    this::distinctStarted,
                    jobs,
                    Duration.ofSeconds(60),
                    Duration.ofSeconds(intOption("w1-max-seconds", 150)));
        } finally {
            close(sampler);
            stopAll(workers);
        }
        Map<String, Object> row = jdbc().queryForMap(
                        "SELECT COUNT(*) AS total, COUNT(DISTINCT run_key) AS distinct_keys, MIN(started_ms) AS first_ms,"
                                + " MAX(started_ms) AS last_ms FROM bench_run WHERE kind = 'S'");
        long total = ((Number) row.get("total")).longValue();
        long distinct = ((Number) row.get("distinct_keys")).longValue();
        double seconds =
                (((Number) row.get("last_ms")).longValue() - ((Number) row.get("first_ms")).longValue()) / 1000.0;
        return new W1Result(
                jobs / enqueueSeconds,
                distinct / Math.max(seconds, 0.001),
                total - distinct,
                jobs - distinct,
                summary(sampler));
    }

    record W1Result(double enqueuePerSecond, double executionsPerSecond, long duplicates, long missing, String waits) {
        @Override
        public String toString() {
            return Stats.number(executionsPerSecond) + " exec/s, " + Stats.number(enqueuePerSecond) + " enqueue/s, "
                    + duplicates + " duplicates, " + missing + " missing; database sessions: " + waits;
        }
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
