package io.dsched.benchmarks;

import static io.dsched.benchmarks.Harness.progress;
import static io.dsched.benchmarks.Harness.rotated;
import static io.dsched.benchmarks.Harness.stopAll;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * W7, sharded fires: one job whose every fire is split into {@code w7-shards} shards, each holding
 * for {@code w7-shard-ms}, on 1, 2 and 3 nodes: from a fire's time to its last shard's end, and how
 * that time falls as nodes are added. Each shard records its start and end through the {@link
 * Probe}, apart from dsched's own history. dsched alone: no peer of the benchmark splits a fire.
 */
final class ShardScaling extends WorkloadRunner {

    /** The sharded job fires every 5 s: room for a fire on one node, and no fire held behind another. */
    private static final String CRON = "*/5 * * * * *";

    private static final int PERIOD_SECONDS = 5;

    ShardScaling(Harness harness) {
        super(harness);
    }

    void run() throws Exception {
        int shards = intOption("w7-shards", 100);
        int shardMillis = intOption("w7-shard-ms", 50);
        int fires = intOption("w7-fires", 10);
        List<Integer> nodeCounts = List.of(option("w7-nodes", "1,2,3").split(",")).stream()
                .map(String::trim)
                .map(Integer::valueOf)
                .toList();
        if (!contestants(Workload.W7_SHARDS).contains("dsched")) {
            return;
        }
        Map<Integer, List<W7Result>> results = new LinkedHashMap<>();
        for (int rep = 0; rep < reps("W7"); rep++) {
            for (int nodes : rotated(nodeCounts, rep)) {
                W7Result result = shardedRun(nodes, shards, shardMillis, fires);
                progress("W7 " + nodes + " nodes run " + (rep + 1) + ": " + result);
                results.computeIfAbsent(nodes, (ignored) -> new ArrayList<>()).add(result);
            }
        }
        line("## W7: one job of " + shards + " shards of " + shardMillis + " ms each, a fire every " + PERIOD_SECONDS
                + " s, " + fires + " fires measured a run, on nodes of " + this.threads + " threads, "
                + reps("W7") + " runs");
        line("");
        line("| nodes | fire to last shard's end ms | first shard's start to last's end ms | speed-up over 1 node"
                + " | most shards on one node | fires not ended | shards run twice |");
        line("| --- | --- | --- | --- | --- | --- | --- |");
        double one = results.containsKey(1) ? Stats.median(medians(results.get(1), W7Result::fireToEnd)) : Double.NaN;
        for (int nodes : nodeCounts) {
            List<W7Result> runs = results.get(nodes);
            double fireToEnd = Stats.median(medians(runs, W7Result::fireToEnd));
            line("| " + nodes + " | " + Stats.spread(medians(runs, W7Result::fireToEnd), Stats::millis) + " | "
                    + Stats.spread(medians(runs, W7Result::firstToLast), Stats::millis) + " | "
                    + (Double.isNaN(one) ? "n/a" : String.format(Locale.ROOT, "%.2f×", one / fireToEnd)) + " | "
                    + Stats.spread(medians(runs, W7Result::mostOnANode), Stats::number) + " | "
                    + runs.stream().mapToLong(W7Result::missing).sum() + " | "
                    + runs.stream().mapToLong(W7Result::duplicates).sum() + " |");
        }
        line("");
        line("Each run's value is the median of its measured fires (the first fire after the nodes started"
                + " is not measured: it warms them up); the cells give the median of the runs and their range."
                + " A fire's time counts from its scheduled time, so it includes the fan-out into shards and the"
                + " wait for the queues' claims; " + shards + " × " + shardMillis + " ms on nodes of "
                + this.threads + " threads cannot end before " + bounds(nodeCounts, shards, shardMillis)
                + ". No peer of the benchmark"
                + " splits a fire: db-scheduler, JobRunr, Quartz and ShedLock run each fire on one node.");
        line("");
        Map<String, List<W7Result>> byCase = new LinkedHashMap<>();
        results.forEach((nodes, runs) -> byCase.put("dsched, " + nodes + " nodes", runs));
        perRun(byCase, List.of(Map.entry("fire to last shard's end ms", W7Result::fireToEnd)));
    }

    private W7Result shardedRun(int nodes, int shards, int shardMillis, int fires) throws Exception {
        Contestant dsched = Contestants.byName("dsched");
        resetAll(dsched);
        List<WorkerProcess> workers = startWorkers(
                dsched,
                Workload.W7_SHARDS,
                nodes,
                this.threads,
                new RecurringPlan(shards, CRON, PERIOD_SECONDS),
                shardMillis);
        List<FireResult> measured;
        long missing;
        try {
            // the fire slots after the nodes are up, by the cron: the first warms them up, the next
            // ones are measured; a slot whose shards did not all run in time counts as not ended
            long periodMillis = PERIOD_SECONDS * 1000L;
            long warmUp = (System.currentTimeMillis() / periodMillis + 1) * periodMillis;
            List<Long> slots = new ArrayList<>();
            for (int i = 1; i <= fires; i++) {
                slots.add(warmUp + i * periodMillis);
            }
            long deadline = slots.get(slots.size() - 1) + 60_000;
            Map<Long, FireResult> byFire = fires(warmUp);
            while (System.currentTimeMillis() < deadline
                    && !slots.stream().allMatch((slot) -> ended(byFire.get(slot), shards))) {
                Harness.pause(500);
                byFire.clear();
                byFire.putAll(fires(warmUp));
            }
            measured = slots.stream()
                    .map(byFire::get)
                    .filter((fire) -> ended(fire, shards))
                    .toList();
            missing = fires - measured.size();
        } finally {
            stopAll(workers);
        }
        if (measured.isEmpty()) {
            return new W7Result(Double.NaN, Double.NaN, Double.NaN, missing, 0);
        }
        return new W7Result(
                Stats.median(measured.stream().map(FireResult::fireToEnd).toList()),
                Stats.median(measured.stream().map(FireResult::firstToLast).toList()),
                Stats.median(measured.stream().map(FireResult::mostOnANode).toList()),
                missing,
                measured.stream().mapToLong(FireResult::duplicates).sum());
    }

    private static boolean ended(FireResult fire, int shards) {
        return fire != null && fire.shards() == shards;
    }

    /** The fires after a time by their scheduled time, each with the shards that ran of it. */
    private Map<Long, FireResult> fires(long after) {
        Map<Long, Long> mostOnANode = new LinkedHashMap<>();
        jdbc().query(
                        "SELECT scheduled_ms, node, COUNT(*) AS shards FROM bench_run"
                                + " WHERE kind = 'S' AND run_key LIKE ? AND scheduled_ms > ? GROUP BY scheduled_ms, node",
                        (rs, row) -> Map.entry(rs.getLong("scheduled_ms"), rs.getLong("shards")),
                        Probe.SHARD_KEY + "%",
                        after)
                .forEach((entry) -> mostOnANode.merge(entry.getKey(), entry.getValue(), Math::max));
        Map<Long, FireResult> fires = new LinkedHashMap<>();
        jdbc().query(
                        "SELECT scheduled_ms, COUNT(*) AS runs, COUNT(DISTINCT run_key) AS shards,"
                                + " MIN(started_us) AS first_start, MAX(ended_us) AS last_end FROM bench_run"
                                + " WHERE kind = 'S' AND run_key LIKE ? AND scheduled_ms > ? GROUP BY scheduled_ms",
                        (rs, row) -> new FireResult(
                                rs.getLong("scheduled_ms"),
                                rs.getLong("shards"),
                                (rs.getLong("last_end") / 1000.0) - rs.getLong("scheduled_ms"),
                                (rs.getLong("last_end") - rs.getLong("first_start")) / 1000.0,
                                mostOnANode.getOrDefault(rs.getLong("scheduled_ms"), 0L),
                                rs.getLong("runs") - rs.getLong("shards")),
                        Probe.SHARD_KEY + "%",
                        after)
                .forEach((fire) -> fires.put(fire.scheduledMillis(), fire));
        return fires;
    }

    /** A fire measured: its shards, in milliseconds its end after its time and its spread. */
    private record FireResult(
            long scheduledMillis,
            long shards,
            double fireToEnd,
            double firstToLast,
            double mostOnANode,
            long duplicates) {}

    /** A run: the medians of its fires, its fires that did not end in time, and its shards that ran twice. */
    record W7Result(double fireToEnd, double firstToLast, double mostOnANode, long missing, long duplicates) {

        @Override
        public String toString() {
            return String.format(
                    Locale.ROOT,
                    "fire to end %.0f ms, first to last %.0f ms, most on a node %.0f, missing %d, twice %d",
                    this.fireToEnd,
                    this.firstToLast,
                    this.mostOnANode,
                    this.missing,
                    this.duplicates);
        }
    }

    /** The least time a fire's shards take on each node count, in waves of a node's threads. */
    private String bounds(List<Integer> nodeCounts, int shards, int shardMillis) {
        return nodeCounts.stream()
                .map((nodes) -> Stats.millis(Math.ceil((double) shards / (nodes * this.threads)) * shardMillis)
                        + " ms on " + nodes)
                .collect(java.util.stream.Collectors.joining(", "));
    }

    private static List<Double> medians(List<W7Result> runs, java.util.function.ToDoubleFunction<W7Result> value) {
        return runs.stream().map((run) -> value.applyAsDouble(run)).toList();
    }
}
