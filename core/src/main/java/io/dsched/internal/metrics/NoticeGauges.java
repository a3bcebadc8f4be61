package io.dsched.internal.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.util.function.BooleanSupplier;

/**
 * Whether this node hears of the attempts other nodes announce, or finds them by polling alone.
 *
 * <table>
 *   <caption>The meter, with its Prometheus name</caption>
 *   <tr><th>meter</th><th>Prometheus</th></tr>
 *   <tr><td>{@code dsched.node.notices}</td><td>{@code dsched_node_notices}</td></tr>
 * </table>
 */
public final class NoticeGauges implements MeterBinder {

    private final BooleanSupplier hearsNotices;

    /**
     * Creates the gauge.
     * @param hearsNotices whether this node hears notices now
     */
    public NoticeGauges(BooleanSupplier hearsNotices) {
        this.hearsNotices = hearsNotices;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        Gauge.builder("dsched.node.notices", this.hearsNotices, (hears) -> hears.getAsBoolean() ? 1 : 0)
                .description("1 while this node hears notices of due attempts (PostgreSQL's NOTIFY or Redis), 0 while"
                        + " it finds them by polling alone")
                .register(registry);
    }
}
