package io.dsched.internal.metrics;

import io.dsched.internal.cluster.GroupLiveness;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;

/**
 * {@code dsched.group.nodes} ({@code dsched_group_nodes} in Prometheus), tagged with the group:
 * how many live nodes serve each node group, 0 while the group is stalled and its attempts wait.
 * A series exists for every group a job or handler of this node runs in, and every group a node
 * served when this node started; its value is read from the database at most once per refresh
 * interval however often it is scraped, and a read that fails makes every series NaN until one
 * succeeds.
 */
public final class GroupGauges implements MeterBinder, SmartInitializingSingleton {

    private static final Logger logger = LoggerFactory.getLogger(GroupGauges.class);

    private final Supplier<List<GroupLiveness.Group>> groups;

    private final RefreshWindow window;

    /** The live nodes of each group as last read, NaN after a failed read. */
    private final Map<String, Double> liveNodes = new ConcurrentHashMap<>();

    private volatile MeterRegistry registry;

    /**
     * Creates the gauges.
     * @param groups reads the groups and their live nodes
     * @param refresh how long a value read is used
     * @param clock the clock
     */
    public GroupGauges(Supplier<List<GroupLiveness.Group>> groups, Duration refresh, Clock clock) {
        this.groups = groups;
        this.window = new RefreshWindow(refresh, clock);
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        this.registry = registry;
        registerKnown();
    }

    @Override
    public void afterSingletonsInstantiated() {
        // once the application's jobs and handlers are all declared
        registerKnown();
    }

    private synchronized void registerKnown() {
        if (this.registry == null) {
            return;
        }
        read();
        this.liveNodes.keySet().forEach(this::register);
    }

    private double liveNodes(String group) {
        refreshIfDue();
        return this.liveNodes.getOrDefault(group, Double.NaN);
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
            for (GroupLiveness.Group group : this.groups.get()) {
                this.liveNodes.put(group.name(), (double) group.liveNodes().size());
            }
        } catch (RuntimeException ex) {
            logger.debug("Could not read the node groups of the cluster: {}", ex.getMessage());
            this.liveNodes.replaceAll((group, nodes) -> Double.NaN);
        }
    }

    private void register(String group) {
        MeterRegistry registry = this.registry;
        if (registry != null) {
            Gauge.builder("dsched.group.nodes", this, (gauges) -> gauges.liveNodes(group))
                    .description("Live nodes that serve the node group; 0 while it is stalled and its attempts wait")
                    .tag("group", group)
                    .register(registry);
        }
    }
}
