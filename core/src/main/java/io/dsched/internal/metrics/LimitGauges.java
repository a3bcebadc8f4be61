package io.dsched.internal.metrics;

import io.dsched.internal.management.views.Limit;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * The use of the cluster-wide limits of one-off handlers, tagged with the handler as {@code job}:
 * {@code dsched.limit.running} (attempts running), {@code dsched.limit.max.concurrent} (the limit in
 * force: the one an adaptive limit allows now while it adapts, else the declared or set one; 0 for
 * none), {@code dsched.limit.waiting} tagged {@code reason} {@code slot} (due attempts waiting
 * because the limit, or their key's, is full), {@code token} (because the bucket is empty) or
 * {@code quota} (because the quota's window is used up), {@code dsched.limit.tokens} (the bucket's
 * tokens, NaN without a rate) and {@code dsched.limit.quota.used} (the attempts claimed in the
 * quota's current window, NaN without a quota). A series exists for every handler this node
 * declares with limits, from the start; its value is read from the database at most once per
 * refresh interval however often it is scraped, and a read that fails makes every series NaN until
 * one succeeds.
 */
public final class LimitGauges implements MeterBinder, SmartInitializingSingleton {

    private static final Logger logger = LoggerFactory.getLogger(LimitGauges.class);

    private final Supplier<List<Limit>> limits;

    private final Supplier<Collection<String>> declared;

    private final RefreshWindow window;

    /** The limits as last read, by handler; NaN is shown in their place after a failed read. */
    private final Map<String, Limit> read = new ConcurrentHashMap<>();

    private volatile boolean failed;

    private volatile MeterRegistry registry;

    /**
     * Creates the gauges.
     * @param limits reads the handlers' limits and their use
     * @param declared the handlers this node declares with limits, each of which has its series
     * @param refresh how long a value read is used
     * @param clock the clock
     */
    public LimitGauges(
            Supplier<List<Limit>> limits, Supplier<Collection<String>> declared, Duration refresh, Clock clock) {
        this.limits = limits;
        this.declared = declared;
        this.window = new RefreshWindow(refresh, clock);
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        this.registry = registry;
        registerKnown();
    }

    @Override
    public void afterSingletonsInstantiated() {
        // once the application's handlers are all declared
        registerKnown();
    }

    private synchronized void registerKnown() {
        MeterRegistry registry = this.registry;
        if (registry == null) {
            return;
        }
        // from the declarations alone: a series exists whether or not the database answers
        for (String job : this.declared.get()) {
            register(registry, job);
        }
    }

    private void register(MeterRegistry registry, String job) {
        gauge(
                registry,
                "dsched.limit.running",
                job,
                null,
                "Attempts of the handler running in the cluster",
                (use) -> use.running());
        gauge(
                registry,
                "dsched.limit.max.concurrent",
                job,
                null,
                "The most attempts of the handler running at once in force (of each key, if counted by key),"
                        + " as its adaptive limit lowers it; 0 for none",
                (use) -> (use.adaptedMaxConcurrent() != null) ? use.adaptedMaxConcurrent() : use.maxConcurrent());
        gauge(
                registry,
                "dsched.limit.waiting",
                job,
                "slot",
                "Due attempts of the handler waiting because its limit (or their key's) is full",
                Limit::waitingForSlot);
        gauge(
                registry,
                "dsched.limit.waiting",
                job,
                "token",
                "Due attempts of the handler waiting because its rate's bucket is empty",
                Limit::waitingForToken);
        gauge(
                registry,
                "dsched.limit.waiting",
                job,
                "quota",
                "Due attempts of the handler waiting because its quota's current window is used up",
                Limit::waitingForQuota);
        gauge(
                registry,
                "dsched.limit.tokens",
                job,
                null,
                "Tokens in the bucket of the handler's rate; NaN while it has none",
                (use) -> (use.tokens() != null) ? use.tokens() : Double.NaN);
        gauge(
                registry,
                "dsched.limit.quota.used",
                job,
                null,
                "Attempts of the handler claimed in its quota's current window; NaN while it has none",
                (use) -> (use.quotaUsed() != null) ? use.quotaUsed() : Double.NaN);
    }

    private void gauge(
            MeterRegistry registry,
            String name,
            String job,
            String reason,
            String description,
            ToDoubleFunction<Limit> value) {
        Gauge.Builder<LimitGauges> builder = Gauge.builder(name, this, (gauges) -> gauges.value(job, value))
                .description(description)
                .tag("job", job);
        if (reason != null) {
            builder.tag("reason", reason);
        }
        builder.register(registry);
    }

    private double value(String job, ToDoubleFunction<Limit> value) {
        refreshIfDue();
        Limit limit = this.read.get(job);
        return (this.failed || limit == null) ? Double.NaN : value.applyAsDouble(limit);
    }

    private synchronized void refreshIfDue() {
        if (this.window.due()) {
            read();
        }
    }

    private synchronized void read() {
        this.window.read();
        try {
            // not registered here: a read may run while the registry is scraped
            for (Limit limit : this.limits.get()) {
                this.read.put(limit.name(), limit);
            }
            this.failed = false;
        } catch (RuntimeException ex) {
            logger.debug("Could not read the limits of the cluster: {}", ex.getMessage());
            this.failed = true;
        }
    }
}
