package io.dsched.internal.audit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Decides which refused writes get a row of {@code dsched_audit}, so that a loop of refused
 * requests cannot fill the table: a request without a user (401) never does, and a user refused
 * (403) gets at most one row a minute on each node. Every refusal is counted all the same, in
 * {@code dsched.management.refusals} tagged with the {@code status}. Safe for concurrent
 * requests: a minute's window of recorded users only ever gives way to a later minute's, so a
 * request that read the clock just before the minute turned cannot open the new minute again. When
 * the wall clock steps back, the later minute's window stays until the clock has caught up: fewer
 * rows for a while, never more.
 */
public final class RefusedWrites {

    /** The actor of a request without a user. */
    public static final String ANONYMOUS = "anonymous";

    private static final long MINUTE = 60_000;

    // past this many actors refused within a minute, further ones get no row until the next minute
    private static final int MAX_ACTORS = 1_000;

    private final MeterRegistry registry;

    private final Clock clock;

    private final AtomicReference<Window> window = new AtomicReference<>(new Window(Long.MIN_VALUE));

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
        Window current = this.window.get();
        while (current.minute < now) {
            Window next = new Window(now);
            current = this.window.compareAndSet(current, next) ? next : this.window.get();
        }
        return current.record(actor);
    }

    /** The users recorded within one minute, at most {@link #MAX_ACTORS} of them. */
    private static final class Window {

        private final long minute;

        private final Set<String> actors = ConcurrentHashMap.newKeySet();

        private final AtomicInteger places = new AtomicInteger(MAX_ACTORS);

        Window(long minute) {
            this.minute = minute;
        }

        boolean record(String actor) {
            if (this.actors.contains(actor)) {
                return false;
            }
            // a place is taken before the user is added, so that no burst goes past the bound
            if (this.places.getAndDecrement() <= 0) {
                this.places.incrementAndGet();
                return false;
            }
            if (!this.actors.add(actor)) {
                this.places.incrementAndGet();
                return false;
            }
            return true;
        }
    }
}
