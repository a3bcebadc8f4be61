package io.dsched.internal.audit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Decides which refused writes get a row of {@code dsched_audit}, so that a loop of refused
 * requests cannot fill the table: a request without a user (401) never does, and a user refused
 * (403) gets at most one row a minute on each node. Every refusal is counted all the same, in
 * {@code dsched.management.refusals} tagged with the {@code status}.
 */
public final class RefusedWrites {

    /** The actor of a request without a user. */
    public static final String ANONYMOUS = "anonymous";

    private static final long MINUTE = 60_000;

    // past this many actors refused within a minute, further ones get no row until the next minute
    private static final int MAX_ACTORS = 1_000;

    private final MeterRegistry registry;

    private final Clock clock;

    private final Map<String, Long> recordedInMinute = new ConcurrentHashMap<>();

    private volatile long minute = -1;

    /**
     * Creates the policy.
     * @param registry where refusals are counted
     * @param clock the clock that says which minute it is
     */
    public RefusedWrites(MeterRegistry registry, Clock clock) {
        this.registry = registry;
        this.clock = clock;
    }

    /**
     * Counts a refused write and says whether to record it.
     * @param actor who asked, or {@link #ANONYMOUS}
     * @param status the status it was answered with, 401 or 403
     * @return whether the refusal gets a row of its own
     */
    public boolean refused(String actor, int status) {
        Counter.builder("dsched.management.refusals")
                .description("Writes refused by the dsched endpoint for want of a user or a role")
                .tag("status", String.valueOf(status))
                .register(this.registry)
                .increment();
        if (ANONYMOUS.equals(actor)) {
            return false;
        }
        long now = this.clock.millis() / MINUTE;
        if (now != this.minute) {
            this.recordedInMinute.clear();
            this.minute = now;
        }
        if (this.recordedInMinute.size() >= MAX_ACTORS) {
            return false;
        }
        return this.recordedInMinute.putIfAbsent(actor, now) == null;
    }
}
