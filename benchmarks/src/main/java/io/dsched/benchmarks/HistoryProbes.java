package io.dsched.benchmarks;

import io.dsched.benchmarks.contestants.DschedHistoryClient;
import io.dsched.execution.ExecutionOrigin;
import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.ExecutionStatus;
import io.dsched.internal.deadletter.DeadLetterFilter;
import io.dsched.internal.store.ExecutionStore;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.BooleanSupplier;
import org.springframework.data.domain.PageRequest;

/**
 * What W8 times, each call on its own, in milliseconds: what a worker sends for every attempt
 * (the claim of a fire, the claim of a due one-off, the outcome) and what the endpoint reads for
 * each page of the admin UI, with the windows and page size it asks for by default.
 */
final class HistoryProbes {

    /** The operations, in the table's order. */
    static final String FIRE_CLAIM = "claim of a fire (insert)";

    static final String DUE_CLAIM = "claim of a due one-off";

    static final String OUTCOME = "outcome of a success";

    /** The job whose pages are read: one of the seeded ones. */
    private static final String JOB = HistorySeed.jobName(7);

    /**
     * The job the claims are made for: not one whose pages are read, so that its rows, which
     * take no time to run, stand in no page's list or percentile.
     */
    private static final String PROBE = "w8-probe";

    private static final PageRequest PAGE = PageRequest.of(0, 20);

    private static final Duration HOUR = Duration.ofHours(1);

    private final DschedHistoryClient client;

    private final ExecutionStore store;

    /** The time of the last fire claimed or waiting, so that each is unique in the run. */
    private Instant lastFire = Instant.EPOCH;

    HistoryProbes(DschedHistoryClient client) {
        this.client = client;
        this.store = client.store();
    }

    /** The page reads, by the name the table gives them. */
    private Map<String, Callable<?>> pages() {
        Map<String, Callable<?>> pages = new LinkedHashMap<>();
        pages.put("executions, first page", () -> this.client.executions().executions(null, null, PAGE));
        pages.put("executions of a job", () -> this.client.executions().executions(JOB, null, PAGE));
        pages.put(
                "executions of a seldom job", () -> this.client.executions().executions(HistorySeed.RARE, null, PAGE));
        pages.put("failed executions", () -> this.client.executions().executions(null, ExecutionStatus.FAILED, PAGE));
        pages.put("jobs, last hour", () -> this.client.jobs().jobs(HOUR));
        pages.put("a job's page, last hour", () -> this.client.jobs().job(JOB, HOUR, null, PAGE));
        pages.put("overview, last hour", () -> this.client.cluster().overview(HOUR));
        pages.put("overview, last 24 h", () -> this.client.cluster().overview(Duration.ofDays(1)));
        pages.put("timeline, last hour", () -> this.client.cluster().timeline(HOUR));
        pages.put("dead letters", () -> this.client.deadLetters().list(DeadLetterFilter.ALL, PAGE));
        return pages;
    }

    /** Names every operation, in the table's order. */
    List<String> operations() {
        List<String> names = new ArrayList<>(List.of(FIRE_CLAIM, DUE_CLAIM, OUTCOME));
        names.addAll(pages().keySet());
        names.add("an execution's page");
        return names;
    }

    /**
     * Times every operation: {@code claims} claims of each kind, each followed by its outcome, then
     * {@code reads} reads of each page.
     * @return each operation's times, in milliseconds
     */
    Map<String, List<Double>> round(int claims, int reads) throws Exception {
        Map<String, List<Double>> times = new LinkedHashMap<>();
        claims(claims, () -> false, times);
        for (Map.Entry<String, Callable<?>> page : pages().entrySet()) {
            for (int i = 0; i < reads; i++) {
                time(times, page.getKey(), page.getValue());
            }
        }
        // the newest attempt: what a page of one reads does not depend on which
        long id = this.client
                .executions()
                .executions(null, null, PAGE)
                .content()
                .get(0)
                .id();
        for (int i = 0; i < reads; i++) {
            time(times, "an execution's page", () -> this.client.executions().execution(id));
        }
        return times;
    }

    /**
     * Claims fires and due one-offs in turn, each followed by its outcome, at least {@code count}
     * of each (one at least) and then for as long as {@code more} says.
     */
    void claims(int count, BooleanSupplier more, Map<String, List<Double>> times) throws Exception {
        count = Math.max(count, 1);
        List<ExecutionRecord> waiting = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            waiting.add(waiting());
        }
        this.store.inserts().insertAll(waiting);
        for (int i = 0; i < count || more.getAsBoolean(); i++) {
            if (i >= count && i % count == 0) {
                // claims go on for as long as asked: refill what they take
                waiting.clear();
                for (int j = 0; j < count; j++) {
                    waiting.add(waiting());
                }
                this.store.inserts().insertAll(waiting);
            }
            Instant scheduledAt = nextFire();
            ExecutionRecord fire = time(times, FIRE_CLAIM, () -> this.store
                    .inserts()
                    .claim(ExecutionRecord.claim(PROBE, scheduledAt, DschedHistoryClient.NODE, Instant.now()))
                    .orElseThrow());
            succeed(fire, times);
            List<ExecutionRecord> due = time(times, DUE_CLAIM, () -> this.store
                    .claims()
                    .claimDue(DschedHistoryClient.NODE, Instant.now(), 1, List.of(PROBE)));
            if (due.isEmpty()) {
                throw new IllegalStateException("No due one-off of " + PROBE + " to claim");
            }
            succeed(due.get(0), times);
        }
    }

    /** A fire time of now, or a millisecond after the last one: each fire's key is its own. */
    private Instant nextFire() {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        this.lastFire = now.isAfter(this.lastFire) ? now : this.lastFire.plusMillis(1);
        return this.lastFire;
    }

    private ExecutionRecord waiting() {
        Instant now = Instant.now();
        Instant scheduledAt = nextFire();
        return ExecutionRecord.waiting(
                PROBE,
                scheduledAt,
                1,
                ExecutionRecord.idempotencyKey(PROBE, scheduledAt) + "/one-off",
                ExecutionOrigin.ONE_OFF,
                DschedHistoryClient.NODE,
                now,
                now.minusSeconds(1),
                null,
                null);
    }

    private void succeed(ExecutionRecord claim, Map<String, List<Double>> times) throws Exception {
        Instant now = Instant.now();
        time(
                times,
                OUTCOME,
                () -> this.store.outcomes().succeed(claim, now, now).join());
    }

    private static <T> T time(Map<String, List<Double>> times, String operation, Callable<T> call) throws Exception {
        long start = System.nanoTime();
        T result = call.call();
        times.computeIfAbsent(operation, (ignored) -> new ArrayList<>()).add((System.nanoTime() - start) / 1e6);
        return result;
    }
}
