package io.dsched.benchmarks;

import static io.dsched.benchmarks.Harness.awaitProgress;
import static io.dsched.benchmarks.Harness.pause;
import static io.dsched.benchmarks.Harness.rates;
import static io.dsched.benchmarks.Harness.stopAll;
import static io.dsched.benchmarks.Harness.sum;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** W3, failover: how soon the fires in flight on a killed node run again elsewhere. */
final class Failover extends WorkloadRunner {

    Failover(Harness harness) {
        super(harness);
    }

    void run() throws Exception {
        int fires = intOption("w3-fires", 100);
        long hold = intOption("w3-hold-seconds", 20) * 1000L;
        List<String> contestants = contestants(Workload.W3_FAILOVER);
        Map<String, List<FailoverResult>> results =
                measureEach("W3", contestants, (name) -> failoverRun(name, fires, hold));
        line("## W3: " + fires + " one-off fires holding " + (hold / 1000) + " s on 3 nodes of "
                + intOption("w3-threads", 60) + " threads (two nodes can hold them all),"
                + " the busiest node killed with SIGKILL, " + reps("W3") + " runs");
        line("");
        line("| contestant | fires lost with the node | every lost fire re-run after, s | not re-run |"
                + " fires completed twice | failure detection |");
        line("| --- | --- | --- | --- | --- | --- |");
        for (Map.Entry<String, List<FailoverResult>> entry : results.entrySet()) {
            List<FailoverResult> runs = entry.getValue();
            line("| " + entry.getKey() + " | " + Stats.spread(rates(runs, (run) -> (double) run.lost())) + " | "
                    + Stats.spread(rates(runs, FailoverResult::rerunSeconds)) + " | "
                    + sum(runs, FailoverResult::notRerun) + " | " + sum(runs, FailoverResult::completedTwice) + " | "
                    + Contestants.byName(entry.getKey()).failureDetection() + " |");
        }
        line("");
        perRun(results, List.of(Map.entry("every lost fire re-run after, s", FailoverResult::rerunSeconds)));
        notes("W3");
    }

    private FailoverResult failoverRun(String name, int fires, long hold) throws Exception {
        Contestant contestant = Contestants.byName(name);
        resetAll(contestant);
        contestant.enqueue(this.db, fires);
        List<WorkerProcess> workers =
                startWorkers(contestant, Workload.W3_FAILOVER, 3, intOption("w3-threads", 60), null, hold);
        try {
            awaitProgress(this::distinctStarted, fires, Duration.ofSeconds(60), Duration.ofMinutes(5));
            Map<String, Object> busiest = jdbc().queryForMap(
                            "SELECT node, COUNT(*) AS runs FROM bench_run WHERE kind = 'S' GROUP BY node ORDER BY runs DESC"
                                    + " LIMIT 1");
            String victim = (String) busiest.get("node");
            WorkerProcess killed = workers.stream()
                    .filter((worker) -> worker.node().equals(victim))
                    .findFirst()
                    .orElseThrow();
            killed.kill();
            long killedAt = System.currentTimeMillis();
            // the fires the node took with it: started there and not done when it died (on a loaded
            // machine some may have ended before the kill, and need no re-run)
            List<String> lost = jdbc().queryForList(
                            "SELECT DISTINCT run_key FROM bench_run WHERE kind = 'S' AND node = ? AND run_key NOT IN"
                                    + " (SELECT run_key FROM bench_run WHERE kind = 'D')",
                            String.class,
                            victim);
            String rerunQuery = "SELECT run_key, MIN(started_ms) AS first_ms FROM bench_run WHERE kind = 'S'"
                    + " AND node <> ? AND started_ms >= ? GROUP BY run_key";
            long deadline = System.currentTimeMillis() + 120_000;
            Map<String, Long> reruns = Map.of();
            while (System.currentTimeMillis() < deadline) {
                reruns = jdbc().queryForList(rerunQuery, victim, killedAt).stream()
                        .collect(Collectors.toMap(
                                (row) -> (String) row.get("run_key"),
                                (row) -> ((Number) row.get("first_ms")).longValue()));
                if (reruns.keySet().containsAll(lost)) {
                    break;
                }
                pause(200);
            }
            Map<String, Long> rerun = reruns;
            long notRerun =
                    lost.stream().filter((key) -> !rerun.containsKey(key)).count();
            double seconds = lost.stream()
                            .filter(rerun::containsKey)
                            .mapToLong((key) -> rerun.get(key) - killedAt)
                            .max()
                            .orElse(0)
                    / 1000.0;
            // let the re-runs finish, then count fires that completed more than once
            awaitProgress(
                    () -> jdbc().queryForObject(
                                    "SELECT COUNT(DISTINCT run_key) FROM bench_run WHERE kind = 'D'", Long.class),
                    fires,
                    Duration.ofSeconds(hold / 1000 + 60),
                    Duration.ofMinutes(3));
            long twice = jdbc().queryForObject(
                            "SELECT COUNT(*) FROM (SELECT run_key FROM bench_run WHERE kind = 'D' GROUP BY run_key"
                                    + " HAVING COUNT(*) > 1) twice",
                            Long.class);
            return new FailoverResult(lost.size(), seconds, notRerun, twice);
        } finally {
            stopAll(workers);
        }
    }

    record FailoverResult(long lost, double rerunSeconds, long notRerun, long completedTwice) {}
}
