package io.dsched.internal.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.dsched.internal.management.views.Limit;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The gauges of limits: one series of each for every handler this node declares with limits, read
 * at most once per refresh interval, NaN while the read fails; the limit in force as an adaptive
 * limit lowers it, and a quota's use.
 */
class LimitGaugesTests {

    private static final Instant NOW = Instant.parse("2031-01-01T00:00:00Z");

    private final AtomicReference<Instant> now = new AtomicReference<>(NOW);

    private final Clock clock = new Clock() {
        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return LimitGaugesTests.this.now.get();
        }
    };

    private final AtomicInteger reads = new AtomicInteger();

    private final AtomicReference<List<Limit>> limits = new AtomicReference<>(List.of(
            limit("capture", 3, "50/1s", 3, 2, 7, 0, 12.5),
            limit("rebuild", 1, null, 1, 1, 0, 0, null),
            // a row of a handler this node does not declare
            limit("elsewhere", 2, null, null, 0, 0, 0, null)));

    @Test
    void theSeriesExistWhileTheDatabaseDoesNotAnswer() {
        this.limits.set(null);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        LimitGauges gauges = new LimitGauges(this::read, () -> List.of("capture"), Duration.ofSeconds(10), this.clock);
        gauges.bindTo(registry);
        gauges.afterSingletonsInstantiated();

        assertThat(gauge(registry, "dsched.limit.running", "capture", null)).isNaN();
        assertThat(gauge(registry, "dsched.limit.waiting", "capture", "slot")).isNaN();
        assertThat(gauge(registry, "dsched.limit.waiting", "capture", "quota")).isNaN();
        assertThat(gauge(registry, "dsched.limit.quota.used", "capture", null)).isNaN();
    }

    @Test
    void theLimitInForceIsTheAdaptedOneAndAQuotaShowsItsWindowsUseAndWhatWaitsForTheNext() {
        this.limits.set(List.of(
                limit("capture", 8, null, 8, 3, 0, 0, null, "20/1d", 12, 0, 3),
                limit("rebuild", 1, null, 1, 1, 2, 0, null, null, null, 0, null)));
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        LimitGauges gauges =
                new LimitGauges(this::read, () -> List.of("capture", "rebuild"), Duration.ofSeconds(10), this.clock);
        gauges.bindTo(registry);

        assertThat(gauge(registry, "dsched.limit.max.concurrent", "capture", null))
                .as("lowered by the adaptive limit, below the declared 8")
                .isEqualTo(3);
        assertThat(gauge(registry, "dsched.limit.quota.used", "capture", null)).isEqualTo(12);
        assertThat(gauge(registry, "dsched.limit.waiting", "capture", "quota")).isZero();
        assertThat(gauge(registry, "dsched.limit.max.concurrent", "rebuild", null))
                .as("a limit that does not adapt")
                .isEqualTo(1);
        assertThat(gauge(registry, "dsched.limit.quota.used", "rebuild", null))
                .as("no quota, no window")
                .isNaN();
        assertThat(gauge(registry, "dsched.limit.waiting", "rebuild", "quota")).isZero();
        assertThat(gauge(registry, "dsched.limit.waiting", "rebuild", "slot")).isEqualTo(2);

        // the window used up, the rest wait for the next; the limit back up to the declared one
        this.limits.set(List.of(limit("capture", 8, null, 8, 2, 0, 0, null, "20/1d", 20, 7, 8)));
        this.now.set(NOW.plusSeconds(10));
        assertThat(gauge(registry, "dsched.limit.quota.used", "capture", null)).isEqualTo(20);
        assertThat(gauge(registry, "dsched.limit.waiting", "capture", "quota")).isEqualTo(7);
        assertThat(gauge(registry, "dsched.limit.waiting", "capture", "slot")).isZero();
        assertThat(gauge(registry, "dsched.limit.max.concurrent", "capture", null))
                .isEqualTo(8);

        // an adaptive limit set aside: the row's own limit again
        this.limits.set(List.of(limit("capture", 6, null, 8, 2, 0, 0, null, null, null, 0, null)));
        this.now.set(NOW.plusSeconds(20));
        assertThat(gauge(registry, "dsched.limit.max.concurrent", "capture", null))
                .isEqualTo(6);
        assertThat(gauge(registry, "dsched.limit.quota.used", "capture", null)).isNaN();
    }

    @Test
    void eachHandlerDeclaredWithLimitsHasItsSeriesReadOncePerRefresh() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        LimitGauges gauges =
                new LimitGauges(this::read, () -> List.of("capture", "rebuild"), Duration.ofSeconds(10), this.clock);
        gauges.bindTo(registry);
        // registered from the declarations, read at the first scrape
        assertThat(this.reads).hasValue(0);

        assertThat(gauge(registry, "dsched.limit.running", "capture", null)).isEqualTo(2);
        assertThat(gauge(registry, "dsched.limit.max.concurrent", "capture", null))
                .isEqualTo(3);
        assertThat(gauge(registry, "dsched.limit.waiting", "capture", "slot")).isEqualTo(7);
        assertThat(gauge(registry, "dsched.limit.waiting", "capture", "token")).isZero();
        assertThat(gauge(registry, "dsched.limit.tokens", "capture", null)).isEqualTo(12.5);
        assertThat(gauge(registry, "dsched.limit.running", "rebuild", null)).isEqualTo(1);
        assertThat(gauge(registry, "dsched.limit.tokens", "rebuild", null))
                .as("no rate, no bucket")
                .isNaN();
        assertThat(registry.find("dsched.limit.running").tag("job", "elsewhere").gauge())
                .isNull();
        assertThat(this.reads).hasValue(1);

        // a change is seen once the refresh interval has passed, not before
        this.limits.set(List.of(limit("capture", 6, "50/1s", 3, 5, 0, 4, 0.0)));
        this.now.set(NOW.plusSeconds(9));
        assertThat(gauge(registry, "dsched.limit.max.concurrent", "capture", null))
                .isEqualTo(3);
        this.now.set(NOW.plusSeconds(10));
        assertThat(gauge(registry, "dsched.limit.max.concurrent", "capture", null))
                .isEqualTo(6);
        assertThat(gauge(registry, "dsched.limit.waiting", "capture", "token")).isEqualTo(4);
        assertThat(this.reads).hasValue(2);

        // a read that fails makes every series NaN until one succeeds
        this.limits.set(null);
        this.now.set(NOW.plusSeconds(20));
        assertThat(gauge(registry, "dsched.limit.running", "capture", null)).isNaN();
        assertThat(gauge(registry, "dsched.limit.running", "rebuild", null)).isNaN();
        this.limits.set(List.of(limit("capture", 6, "50/1s", 3, 1, 0, 0, 3.0)));
        this.now.set(NOW.plusSeconds(30));
        assertThat(gauge(registry, "dsched.limit.running", "capture", null)).isEqualTo(1);
    }

    private List<Limit> read() {
        this.reads.incrementAndGet();
        List<Limit> read = this.limits.get();
        if (read == null) {
            throw new IllegalStateException("database unreachable");
        }
        return read;
    }

    private static double gauge(SimpleMeterRegistry registry, String name, String job, String reason) {
        var search = registry.find(name).tag("job", job);
        if (reason != null) {
            search = search.tag("reason", reason);
        }
        return search.gauge().value();
    }

    private static Limit limit(
            String name,
            int maxConcurrent,
            String rate,
            Integer declared,
            long running,
            long forSlot,
            long forToken,
            Double tokens) {
        return limit(name, maxConcurrent, rate, declared, running, forSlot, forToken, tokens, null, null, 0, null);
    }

    private static Limit limit(
            String name,
            int maxConcurrent,
            String rate,
            Integer declared,
            long running,
            long forSlot,
            long forToken,
            Double tokens,
            String quota,
            Integer quotaUsed,
            long forQuota,
            Integer adapted) {
        return new Limit(
                name,
                maxConcurrent,
                rate,
                declared,
                (declared != null) ? rate : null,
                false,
                null,
                null,
                running,
                forSlot + forToken + forQuota,
                forSlot,
                forToken,
                tokens,
                quota,
                (declared != null) ? quota : null,
                quotaUsed,
                forQuota,
                adapted,
                null,
                null,
                List.of());
    }
}
