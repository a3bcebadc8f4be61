package io.dsched.internal.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.List;
import java.util.function.Supplier;

/**
 * How this node hears of the attempts other nodes announce, as a set of states of which one is 1
 * and the others 0: whether it hears notices, finds them by polling alone (its listening connection
 * is down, or its probes do not come back), has not yet checked, or does not listen at all.
 *
 * <table>
 *   <caption>The meter, with its Prometheus name</caption>
 *   <tr><th>meter</th><th>Prometheus</th></tr>
 *   <tr><td>{@code dsched.node.notices}, tag {@code state}</td><td>{@code dsched_node_notices}</td></tr>
 * </table>
 */
public final class NoticeGauges implements MeterBinder {

    private final List<String> states;

    private final Supplier<String> state;

    /**
     * Creates the gauges.
     * @param states every state, by the name the tag gives it
     * @param state the node's state now, one of them
     */
    public NoticeGauges(List<String> states, Supplier<String> state) {
        this.states = List.copyOf(states);
        this.state = state;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        for (String name : this.states) {
            Gauge.builder("dsched.node.notices", this.state, (now) -> name.equals(now.get()) ? 1 : 0)
                    .tag("state", name)
                    .description("1 for how this node hears of due attempts now: notices (PostgreSQL's NOTIFY or"
                            + " Redis), polling or astray (polling alone), not_yet, or off (it does not listen)")
                    .register(registry);
        }
    }
}
