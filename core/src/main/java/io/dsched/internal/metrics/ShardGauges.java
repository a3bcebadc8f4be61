package io.dsched.internal.metrics;

import io.dsched.internal.execution.ShardedFire;
import io.dsched.internal.store.ShardedFires.Partial;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import java.util.function.ToIntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * The fires of sharded jobs, tagged with the job, read from the database so that every node tells
 * the same of the cluster: {@code dsched.shards.per.fire} (the shards each fire written now is split
 * into: those set at run time, or the node's declaration's), {@code dsched.shard.fire.completion} (seconds from the first shard's start to the
 * last one's end, of the job's latest fire to have ended), {@code dsched.shard.fire.shards.on.node}
 * (the shards of that fire this node ran: their spread, summed over the nodes),
 * {@code dsched.shard.fires.partial} (fires with a shard whose dead letter is open) and
 * {@code dsched.shards.dead.lettered} (those shards). A series exists for every sharded job this
 * node declares, from the start, and for every runtime job created with shards, from this node's
 * first read of the runtime jobs after its creation (at once on the node that created it, on the
 * others within 5 s of their next look at the jobs) until the read after its deletion; values are read at most once per refresh interval however often they are scraped, and a
 * read that fails makes them NaN until one succeeds.
 */
public final class ShardGauges implements MeterBinder, SmartInitializingSingleton {

    private static final Logger logger = LoggerFactory.getLogger(ShardGauges.class);

    private final Supplier<Map<String, Integer>> declared;

    private final Function<String, List<ShardedFire>> latestFires;

    private final ToIntFunction<String> inForce;

    /** The shards each job's fires are split into now, as last read. */
    private final Map<String, Integer> counts = new ConcurrentHashMap<>();

    private final Supplier<Map<String, Partial>> partial;

    private final String nodeId;

    private final RefreshWindow window;

    /** The latest ended fire of each job, as last read. */
    private final Map<String, Optional<ShardedFire>> ended = new ConcurrentHashMap<>();

    private volatile Map<String, Partial> partialRead = Map.of();

    private volatile boolean failed;

    private volatile MeterRegistry registry;

    /** The gauges registered, by sharded job. */
    private final Map<String, List<Meter>> meters = new ConcurrentHashMap<>();

    /**
     * Creates the gauges.
     * @param declared the shards of each sharded job this node declares
     * @param latestFires reads a job's latest fires, the latest first
     * @param inForce reads the shards a job's fires are split into now
     * @param partial reads the fires left partial, by job
     * @param nodeId this node
     * @param refresh how long a value read is used
     * @param clock the clock
     */
    public ShardGauges(
            Supplier<Map<String, Integer>> declared,
            Function<String, List<ShardedFire>> latestFires,
            ToIntFunction<String> inForce,
            Supplier<Map<String, Partial>> partial,
            String nodeId,
            Duration refresh,
            Clock clock) {
        this.declared = declared;
        this.latestFires = latestFires;
        this.inForce = inForce;
        this.partial = partial;
        this.nodeId = nodeId;
        this.window = new RefreshWindow(refresh, clock);
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        this.registry = registry;
        jobsChanged();
    }

    @Override
    public void afterSingletonsInstantiated() {
        jobsChanged();
    }

    /**
     * Registers the series of the sharded jobs that have none, a runtime job created with shards
     * since, and removes those of jobs no longer sharded, a runtime job deleted: called as the
     * runtime jobs are read changed (by whichever thread reads them), not by the gauges' own reads.
     */
    public void jobsChanged() {
        if (this.registry == null) {
            return;
        }
        // read before the lock: it may read the runtime jobs from the database
        Map<String, Integer> sharded = this.declared.get();
        synchronized (this.meters) {
            MeterRegistry registry = this.registry;
            sharded.forEach(
                    (job, shards) -> this.meters.computeIfAbsent(job, (name) -> register(registry, name, shards)));
            for (String job : List.copyOf(this.meters.keySet())) {
                if (!sharded.containsKey(job)) {
                    this.meters.remove(job).forEach(registry::remove);
                    this.counts.remove(job);
                    this.ended.remove(job);
                }
            }
        }
    }

    private List<Meter> register(MeterRegistry registry, String job, int shards) {
        List<Meter> meters = new ArrayList<>();
        meters.add(Gauge.builder("dsched.shards.per.fire", this, (gauges) -> gauges.inForce(job, shards))
                .description("Shards each fire of the job written now is split into: those set at run time, or"
                        + " as this node declares it")
                .tag("job", job)
                .register(registry));
        meters.add(gauge(
                registry,
                "dsched.shard.fire.completion",
                job,
                "seconds",
                "Seconds from the first shard's start to the last one's end, of the job's latest fire to have"
                        + " ended; NaN before one has",
                (fire) -> (fire.completion() != null) ? fire.completion().toMillis() / 1000.0 : Double.NaN));
        meters.add(gauge(
                registry,
                "dsched.shard.fire.shards.on.node",
                job,
                null,
                "Shards of the job's latest fire to have ended that this node ran",
                (fire) -> fire.shardsByNode().getOrDefault(this.nodeId, 0)));
        meters.add(Gauge.builder("dsched.shard.fires.partial", this, (gauges) -> gauges.partial(job, Partial::fires))
                .description("Fires of the job with a shard whose dead letter is open")
                .tag("job", job)
                .register(registry));
        meters.add(Gauge.builder("dsched.shards.dead.lettered", this, (gauges) -> gauges.partial(job, Partial::shards))
                .description("Shards of the job whose dead letters are open")
                .tag("job", job)
                .register(registry));
        return meters;
    }

    private Meter gauge(
            MeterRegistry registry,
            String name,
            String job,
            String unit,
            String description,
            ToDoubleFunction<ShardedFire> value) {
        return Gauge.builder(name, this, (gauges) -> gauges.ended(job, value))
                .description(description)
                .baseUnit(unit)
                .tag("job", job)
                .register(registry);
    }

    private double ended(String job, ToDoubleFunction<ShardedFire> value) {
        refreshIfDue();
        Optional<ShardedFire> fire = this.ended.getOrDefault(job, Optional.empty());
        return (this.failed || fire.isEmpty()) ? Double.NaN : value.applyAsDouble(fire.get());
    }

    private double inForce(String job, int declared) {
        refreshIfDue();
        return this.failed ? Double.NaN : this.counts.getOrDefault(job, declared);
    }

    private double partial(String job, ToDoubleFunction<Partial> value) {
        refreshIfDue();
        return this.failed ? Double.NaN : value.applyAsDouble(this.partialRead.getOrDefault(job, new Partial(0, 0)));
    }

    private synchronized void refreshIfDue() {
        if (!this.window.due()) {
            return;
        }
        this.window.read();
        try {
            for (String job : this.meters.keySet()) {
                this.counts.put(job, this.inForce.applyAsInt(job));
                this.ended.put(
                        job,
                        this.latestFires.apply(job).stream()
                                // a fire cancelled before it ran (a held one) has no completion
                                .filter((fire) -> fire.ended() && fire.firstStart() != null)
                                .findFirst());
            }
            // nothing kept of a job whose series went meanwhile
            this.counts.keySet().retainAll(this.meters.keySet());
            this.ended.keySet().retainAll(this.meters.keySet());
            this.partialRead = this.partial.get();
            this.failed = false;
        } catch (RuntimeException ex) {
            logger.debug("Could not read the fires of the sharded jobs: {}", ex.getMessage());
            this.failed = true;
        }
    }
}
