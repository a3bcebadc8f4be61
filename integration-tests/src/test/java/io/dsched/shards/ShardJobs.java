package io.dsched.shards;

import io.dsched.annotation.DistributedScheduled;
import io.dsched.annotation.JobHandler;
import io.dsched.execution.JobContext;
import io.dsched.retry.Retry;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Configuration;

/**
 * The application of the shard tests: sharded jobs declared as an application's
 * {@code @DistributedScheduled} methods are, each disabled unless a test gives its schedule; each
 * run is recorded with its shard, its node, its start and its end.
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
public class ShardJobs {

    /** Each run of each job, in the order they started. */
    static final Map<String, List<Run>> RUNS = new ConcurrentHashMap<>();

    /** Whether shard 3 of {@code flaky} fails. */
    static volatile boolean failShardThree = true;

    /** Holds shards 2 and 3 of {@code lost} on the doomed node. */
    static volatile CountDownLatch held = new CountDownLatch(1);

    /** How many shards the doomed node holds. */
    static final AtomicInteger HOLDING = new AtomicInteger();

    /** Holds every run of {@code refresh} while closed, but on the nodes it is open for. */
    static volatile CountDownLatch gate = new CountDownLatch(0);

    /** The nodes whose runs of {@code refresh} pass the gate closed. */
    static volatile Set<String> gateOpenFor = Set.of();

    static void reset() {
        RUNS.clear();
        CURRENCIES.clear();
        failShardThree = true;
        held = new CountDownLatch(1);
        HOLDING.set(0);
        gate = new CountDownLatch(0);
        gateOpenFor = Set.of();
    }

    static List<Run> runs(String job) {
        return RUNS.getOrDefault(job, List.of());
    }

    /**
     * Twelve shards, the first two with a parameter, each a call of 800 ms.
     * @param context the shard's attempt
     * @throws InterruptedException if stopped
     */
    @DistributedScheduled(
            name = "settle",
            cron = "${test.settle.cron:-}",
            shards = "${test.settle.shards:12}",
            shardParams = {"0=Beijing", "1=Shanghai"})
    public void settle(JobContext context) throws InterruptedException {
        run(context, 800);
    }

    /**
     * Four shards: shard 2 fails its first two attempts, shard 3 fails while told to.
     * @param context the shard's attempt
     */
    @DistributedScheduled(
            name = "flaky",
            cron = "${test.flaky.cron:-}",
            shards = "4",
            retry = @Retry(maxRetries = 2, delay = "100ms", multiplier = 1))
    public void flaky(JobContext context) throws InterruptedException {
        run(context, 0);
        if (context.shardIndex() == 2 && context.attempt() <= 2) {
            throw new IllegalStateException("shard 2 fails attempt " + context.attempt());
        }
        if (context.shardIndex() == 3 && failShardThree) {
            throw new IllegalStateException("shard 3 fails");
        }
    }

    /**
     * Three shards of 1.5 s each on a schedule of every second: slower than its period.
     * @param context the shard's attempt
     * @throws InterruptedException if stopped
     */
    @DistributedScheduled(name = "slow", cron = "${test.slow.cron:-}", shards = "3")
    public void slow(JobContext context) throws InterruptedException {
        run(context, 1500);
    }

    /**
     * Two shards of 1.5 s each on a schedule of every second, whose fires may overlap.
     * @param context the shard's attempt
     * @throws InterruptedException if stopped
     */
    @DistributedScheduled(name = "overlapping", cron = "${test.overlapping.cron:-}", shards = "2", overlap = true)
    public void overlapping(JobContext context) throws InterruptedException {
        run(context, 1500);
    }

    /**
     * Three shards of 1 s each, the first with a parameter, on a schedule of every second: a fire is
     * under way, and the next one written held, most of the time.
     * @param context the shard's attempt
     * @throws InterruptedException if stopped
     */
    @DistributedScheduled(name = "reshard", cron = "${test.reshard.cron:-}", shards = "3", shardParams = "0=a")
    public void reshard(JobContext context) throws InterruptedException {
        run(context, 1000);
    }

    /**
     * Four shards: on the node named {@code doomed}, shards 2 and 3 hold until released; elsewhere
     * each returns at once.
     * @param context the shard's attempt
     * @throws InterruptedException if stopped
     */
    @DistributedScheduled(name = "lost", cron = "${test.lost.cron:-}", shards = "4")
    public void lost(JobContext context) throws InterruptedException {
        if (context.nodeId().equals("doomed") && context.shardIndex() >= 2) {
            HOLDING.incrementAndGet();
            // released by the test's end, whenever the test ends
            held.await();
        }
        run(context, 0);
    }

    /**
     * Broadcast: each fire once on every live node; on the node named {@code doomed}, a run holds
     * until released, and on every node while the gate is closed.
     * @param context the node's attempt
     * @throws InterruptedException if stopped
     */
    @DistributedScheduled(name = "refresh", cron = "${test.refresh.cron:-}", broadcast = true)
    public void refresh(JobContext context) throws InterruptedException {
        if (context.nodeId().equals("doomed")) {
            HOLDING.incrementAndGet();
            // released by the test's end, whenever the test ends
            held.await();
        }
        if (!gateOpenFor.contains(context.nodeId())) {
            // released by the test, or by its end
            gate.await();
        }
        run(context, 0);
    }

    /**
     * Broadcast: every node's first attempt of each fire fails, its retry succeeds.
     * @param context the node's attempt
     * @throws InterruptedException if stopped
     */
    @DistributedScheduled(
            name = "warm",
            cron = "${test.warm.cron:-}",
            broadcast = true,
            retry = @Retry(maxRetries = 1, delay = "100ms", multiplier = 1))
    public void warm(JobContext context) throws InterruptedException {
        run(context, 0);
        if (context.attempt() == 1) {
            throw new IllegalStateException("the first attempt fails on " + context.nodeId());
        }
    }

    /** The currency each run of the runtime job {@code ledger} was given, by its key. */
    static final Map<String, String> CURRENCIES = new ConcurrentHashMap<>();

    /**
     * The handler of runtime jobs, sharded or not: records its run, of 300 ms, with the job's
     * parameters.
     * @param ledger the job's parameters
     * @param context the shard's attempt
     * @throws InterruptedException if stopped
     */
    @JobHandler("ledger")
    public void ledger(Ledger ledger, JobContext context) throws InterruptedException {
        CURRENCIES.put(context.idempotencyKey(), ledger.currency());
        // longer than a poll interval of the nodes, so that a fire's shards spread over them
        run(context, 300);
    }

    /**
     * The parameters of a runtime job of {@code ledger}.
     * @param currency the currency it settles
     */
    record Ledger(String currency) {}

    private static void run(JobContext context, long millis) throws InterruptedException {
        Instant started = Instant.now();
        // simulated work of a shard, not a wait for another thread
        Thread.sleep(millis);
        RUNS.computeIfAbsent(context.jobName(), (job) -> new CopyOnWriteArrayList<>())
                .add(new Run(
                        context.scheduledAt(),
                        context.shardIndex(),
                        context.shardCount(),
                        context.shardParam(),
                        context.attempt(),
                        context.idempotencyKey(),
                        context.nodeId(),
                        started,
                        Instant.now()));
    }

    /** A run of a shard. */
    record Run(
            Instant fire,
            int shard,
            int shards,
            String param,
            int attempt,
            String key,
            String node,
            Instant startedAt,
            Instant endedAt) {}
}
