package io.dsched.benchmarks;

import io.dsched.benchmarks.contestants.DschedContestant;
import io.dsched.benchmarks.contestants.DschedHistoryClient;
import io.dsched.definition.Schedule;
import io.dsched.internal.history.Housekeeping;
import io.dsched.jobs.RecurringJob;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * W8, history at scale: how long what a worker sends for each attempt, and what the endpoint reads
 * for each page, take on an empty history and on one of millions of rows, and what deleting a day
 * of it does to the claims meanwhile. dsched alone: the peers keep no history to compare.
 *
 * <p>One client of dsched in the coordinator ({@link DschedHistoryClient}) makes every call, one at
 * a time, as a node and the endpoint would: {@link HistoryProbes} says which. The rounds on the
 * empty table run first; then {@link HistorySeed} inserts the newest day of the history (by
 * default 10 million rows, 14 days at about 8 a second) and the same rounds run again, then the
 * days before it, and the rounds run a third time: a page that reads a window reads as many rows
 * of it on one day of history as on fourteen, so the second rounds tell what the size of the
 * history costs apart from what is in the window. Then each round of the purge moves
 * housekeeping's clock on a day, so that with a retention of 13 days it deletes the oldest day
 * left, while claims and outcomes go on beside it.
 */
final class HistoryAtScale extends WorkloadRunner {

    private static final int DAYS = 14;

    HistoryAtScale(Harness harness) {
        super(harness);
    }

    void run() throws Exception {
        long rows = Long.parseLong(option("w8-rows", "10000000"));
        int claims = intOption("w8-claims", 300);
        int reads = intOption("w8-reads", 20);
        int rounds = reps("W8");
        resetAll(new DschedContestant());
        Map<String, List<Map<String, List<Double>>>> histories = new LinkedHashMap<>();
        List<Purge> purges = new ArrayList<>();
        Duration seeding;
        List<String> operations;
        try (DschedHistoryClient client = DschedHistoryClient.start(this.db)) {
            for (int job = 0; job < HistorySeed.JOBS; job++) {
                // yearly: defined, so that the pages list them, but never due in the run
                client.scheduler()
                        .create(RecurringJob.of(
                                HistorySeed.jobName(job),
                                "bench.recurring",
                                new Schedule.Cron("0 0 0 1 1 ?", ZoneOffset.UTC),
                                job));
            }
            HistoryProbes probes = new HistoryProbes(client);
            operations = probes.operations();
            histories.put("empty", rounds(probes, rounds, claims, reads, "empty history"));
            HistorySeed seed =
                    new HistorySeed(this.db, jdbc(), rows, DAYS, Instant.now().minusSeconds(60));
            long start = System.nanoTime();
            seed.newestDay();
            long newestDay = System.nanoTime() - start;
            histories.put("one day", rounds(probes, rounds, claims, reads, "one day of history"));
            start = System.nanoTime();
            seed.olderDays();
            seeding = Duration.ofNanos(newestDay + System.nanoTime() - start);
            histories.put(DAYS + " days", rounds(probes, rounds, claims, reads, DAYS + " days of history"));
            // a day a round, and never the newest two: the claims go on beside the purge
            int purgeRounds = Math.min(rounds, DAYS - 2);
            for (int round = 0; round < purgeRounds; round++) {
                purges.add(purge(client, probes, round, claims));
                Harness.progress("W8 purge, round " + (round + 1) + " of " + purgeRounds + ": " + purges.get(round));
            }
        }
        report(rows, claims, reads, histories, purges, seeding, operations);
    }

    private static List<Map<String, List<Double>>> rounds(
            HistoryProbes probes, int rounds, int claims, int reads, String history) throws Exception {
        List<Map<String, List<Double>>> times = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            times.add(probes.round(claims, reads));
            Harness.progress("W8 " + history + ", round " + (round + 1) + " of " + rounds);
        }
        return times;
    }

    /** Deletes the oldest day left while claims and outcomes go on, one after another. */
    private Purge purge(DschedHistoryClient client, HistoryProbes probes, int round, int claims) throws Exception {
        Housekeeping housekeeping = client.housekeeping(
                Duration.ofDays(DAYS - 1),
                Clock.offset(Clock.systemUTC(), Duration.ofDays(round)),
                intOption("w8-batch-size", 0),
                option("w8-batch-pause", ""));
        // the same claims alone first, just before, so that each round compares like with like
        Map<String, List<Double>> alone = new LinkedHashMap<>();
        long until = System.nanoTime()
                + Duration.ofSeconds(intOption("w8-alone-seconds", 10)).toNanos();
        probes.claims(claims, () -> System.nanoTime() < until, alone);
        CompletableFuture<Purge> deleting = CompletableFuture.supplyAsync(() -> {
            long start = System.nanoTime();
            int deleted = housekeeping.purge();
            return new Purge(deleted, Duration.ofNanos(System.nanoTime() - start), Map.of(), Map.of());
        });
        try {
            Map<String, List<Double>> beside = new LinkedHashMap<>();
            probes.claims(claims, () -> !deleting.isDone(), beside);
            Purge purge = deleting.join();
            return new Purge(purge.deleted(), purge.took(), alone, beside);
        } finally {
            // if the claims failed, the purge still ends before the client it deletes through closes
            deleting.exceptionally((failure) -> null).join();
        }
    }

    private void report(
            long rows,
            int claims,
            int reads,
            Map<String, List<Map<String, List<Double>>>> histories,
            List<Purge> purges,
            Duration seeding,
            List<String> operations) {
        List<Map<String, List<Double>>> empty = histories.get("empty");
        List<Map<String, List<Double>>> day = histories.get("one day");
        List<Map<String, List<Double>>> full = histories.get(DAYS + " days");
        line("## W8: history at scale, " + Stats.count(rows) + " rows over " + DAYS + " days, " + empty.size()
                + " rounds");
        line("");
        line("Each round times " + claims + " claims of each kind, each followed by its outcome, and " + reads
                + " reads of each page, one call at a time from one client; milliseconds, the median of the"
                + " rounds and (min–max). The rounds run on an empty history, on its newest day alone ("
                + Stats.count(rows / DAYS) + " rows, whose last hour and last day hold what the full history's"
                + " hold), and on all " + DAYS + " days. The history took " + seeding.toSeconds()
                + " s to insert (" + Stats.count(rows / Math.max(1.0, seeding.toMillis() / 1000.0))
                + " rows/s), statistics included.");
        line("");
        line("| operation | empty: p50 | empty: p99 | one day: p50 | one day: p99 | " + DAYS + " days: p50 | " + DAYS
                + " days: p99 | p99 ÷ one day | p99 ÷ empty |");
        line("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
        for (String operation : operations) {
            StringBuilder row = new StringBuilder("| " + operation + " |");
            for (List<Map<String, List<Double>>> history : List.of(empty, day, full)) {
                row.append(' ')
                        .append(Stats.spread(percentiles(history, operation, 50), Stats::millis))
                        .append(" | ")
                        .append(Stats.spread(percentiles(history, operation, 99), Stats::millis))
                        .append(" |");
            }
            List<Double> fullP99 = percentiles(full, operation, 99);
            line(row + " " + times(fullP99, percentiles(day, operation, 99)) + " | "
                    + times(fullP99, percentiles(empty, operation, 99)) + " |");
        }
        line("");
        line("### W8: claims while housekeeping deletes a day");
        line("");
        line("Each round moves housekeeping's clock on a day, so that it deletes the oldest day of history left"
                + " (a retention of " + (DAYS - 1) + " days), while one client claims and completes attempts one"
                + " after another beside it; before it, the same client claims alone for "
                + intOption("w8-alone-seconds", 10) + " s, and the table compares the two.");
        line("");
        line("| operation | alone: p50 | alone: p99 | beside the purge: p50 | beside the purge: p99 | p99 ÷ alone |");
        line("| --- | --- | --- | --- | --- | --- |");
        List<Map<String, List<Double>>> alone =
                purges.stream().map(Purge::alone).toList();
        List<Map<String, List<Double>>> beside =
                purges.stream().map(Purge::beside).toList();
        for (String operation : List.of(HistoryProbes.FIRE_CLAIM, HistoryProbes.DUE_CLAIM, HistoryProbes.OUTCOME)) {
            List<Double> p99 = percentiles(beside, operation, 99);
            line("| " + operation + " | " + Stats.spread(percentiles(alone, operation, 50), Stats::millis) + " | "
                    + Stats.spread(percentiles(alone, operation, 99), Stats::millis) + " | "
                    + Stats.spread(percentiles(beside, operation, 50), Stats::millis) + " | "
                    + Stats.spread(p99, Stats::millis) + " | " + times(p99, percentiles(alone, operation, 99)) + " |");
        }
        line("");
        line("Rows housekeeping deleted a round (attempts, and whatever else was past its retention): "
                + Stats.spread(list(purges, (purge) -> (double) purge.deleted()), Stats::count)
                + "; seconds: "
                + Stats.spread(list(purges, (purge) -> purge.took().toMillis() / 1000.0))
                + "; rows deleted a second: "
                + Stats.spread(
                        list(purges, (purge) -> purge.deleted() / (purge.took().toMillis() / 1000.0)), Stats::count)
                + ".");
        line("");
        notes("W8");
    }

    private static List<Double> percentiles(List<Map<String, List<Double>>> rounds, String operation, double percent) {
        return rounds.stream()
                .map((round) -> round.getOrDefault(operation, List.of()))
                .filter((times) -> !times.isEmpty())
                .map((times) -> Stats.percentile(times, percent))
                .toList();
    }

    private static <T> List<Double> list(List<T> items, Function<T, Double> value) {
        return items.stream().map(value).toList();
    }

    /** The ratio of two medians, such as {@code 1.2×}. */
    private static String times(List<Double> value, List<Double> base) {
        if (value.isEmpty() || base.isEmpty()) {
            return "n/a";
        }
        return String.format(java.util.Locale.ROOT, "%.2f×", Stats.median(value) / Stats.median(base));
    }

    /** One round of the purge: what it deleted, how long it took, the claims alone and beside it. */
    private record Purge(
            int deleted, Duration took, Map<String, List<Double>> alone, Map<String, List<Double>> beside) {

        @Override
        public String toString() {
            return this.deleted + " rows in " + this.took.toMillis() + " ms";
        }
    }
}
