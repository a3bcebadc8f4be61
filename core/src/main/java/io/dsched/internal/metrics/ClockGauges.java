package io.dsched.internal.metrics;

import io.dsched.internal.cluster.ClockSkew;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

/**
 * This node's clock against the database's, as measured at its last heartbeat.
 *
 * <table>
 *   <caption>The meters, with their Prometheus names</caption>
 *   <tr><th>meter</th><th>Prometheus</th></tr>
 *   <tr><td>{@code dsched.node.clock.offset}</td><td>{@code dsched_node_clock_offset_seconds}</td></tr>
 *   <tr><td>{@code dsched.node.clock.skewed}</td><td>{@code dsched_node_clock_skewed}</td></tr>
 * </table>
 */
public final class ClockGauges implements MeterBinder {

    private final ClockSkew skew;

    /**
     * Creates the gauges.
     * @param skew the node's clock measurement
     */
    public ClockGauges(ClockSkew skew) {
        this.skew = skew;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Gauge.builder(
                        "dsched.node.clock.offset",
                        this.skew,
                        (skew) -> skew.offset().toNanos() / 1e9)
                .description("How far this node's clock runs ahead of the database's (negative when behind)")
                .baseUnit("seconds")
                .register(registry);
        Gauge.builder("dsched.node.clock.skewed", this.skew, (skew) -> skew.isSkewed() ? 1 : 0)
                .description("1 while this node's clock is beyond dsched.cluster.max-clock-skew and it takes no fires")
                .register(registry);
    }
}
