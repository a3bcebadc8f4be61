package io.dsched.internal.management;

import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.ExecutionStatus;
import io.dsched.internal.execution.Rate;
import io.dsched.internal.handler.HandlerRegistry;
import io.dsched.internal.management.views.Limit;
import io.dsched.internal.store.LimitStore;
import io.dsched.internal.store.LimitUse;
import io.dsched.internal.store.TargetLimits;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The cluster-wide limits of one-off handlers through the management endpoint: read with their use,
 * set at run time, and taken back to those declared. A limit set here is written to the handler's
 * row, which every node reads as it claims: it holds on every node from its next claim on, and no
 * node's declaration overwrites it until it is reset. Roles and the audit log are the endpoint's.
 */
public class LimitCommands {

    /** The most a concurrency limit set at run time may be. */
    static final int MOST_CONCURRENT = 100_000;

    /** The longest text of a rate read. */
    private static final int MOST_RATE_TEXT = 40;

    private final HandlerRegistry handlers;

    private final LimitStore store;

    private final Clock clock;

    /**
     * Creates the commands.
     * @param handlers the handlers this node declares, with their declared limits
     * @param store the limits in the database
     * @param clock the clock
     */
    public LimitCommands(HandlerRegistry handlers, LimitStore store, Clock clock) {
        this.handlers = handlers;
        this.store = store;
        this.clock = clock;
    }

    /**
     * Lists the handlers with limits: those with a row (limits in force) and those this node declares
     * with limits, by name.
     * @return the limits and their use
     */
    public List<Limit> limits() {
        Map<String, LimitUse> uses = new LinkedHashMap<>();
        for (LimitUse use : this.store.uses(this.clock.instant())) {
            uses.put(use.name(), use);
        }
        TreeSet<String> names = new TreeSet<>(uses.keySet());
        for (String name : this.handlers.names()) {
            if (this.handlers.limits(name)) {
                names.add(name);
            }
        }
        List<Limit> limits = new ArrayList<>(names.size());
        for (String name : names) {
            limits.add(view(name, uses.get(name)));
        }
        return limits;
    }

    /**
     * Sets a handler's limits on every node; a value not given keeps the one in force.
     * @param name the handler
     * @param maxConcurrent the most of its attempts running at once, 0 for none; or {@code null}
     * @param rate the rate, such as {@code "50/1s"}, {@code "none"} for none; or {@code null}
     * @param quota the quota, such as {@code "10000/1d"}, {@code "none"} for none; or {@code null}
     * @param keyRate the rate of each key, such as {@code "5/1s"}, {@code "none"} for none; or {@code null}
     * @param actor who sets it
     * @return what changed
     * @throws ManagementException (400) for a value out of range, (404) for a handler without limits,
     *     (409) for one this node declares without limits
     */
    public Change set(String name, Integer maxConcurrent, String rate, String quota, String keyRate, String actor) {
        if (maxConcurrent == null && rate == null && quota == null && keyRate == null) {
            throw ManagementException.badInput("maxConcurrent", "give maxConcurrent, rate, quota, keyRate or more");
        }
        if (maxConcurrent != null && (maxConcurrent < 0 || maxConcurrent > MOST_CONCURRENT)) {
            throw ManagementException.badInput(
                    "maxConcurrent", "the most attempts running at once is 0 (none) to " + MOST_CONCURRENT);
        }
        Rate newRate = parse("rate", rate);
        Rate newQuota = parse("quota", quota);
        Rate newKeyRate = parse("keyRate", keyRate);
        if (newKeyRate != null && this.handlers.handler(name).isPresent() && !this.handlers.perKey(name)) {
            throw ManagementException.conflict(
                    "'" + name + "' has no partitionBy on this node: it has no keys to rate");
        }
        if (this.handlers.handler(name).isPresent() && !this.handlers.limits(name)) {
            throw ManagementException.conflict("'" + name + "' declares no limit on this node, which claims its"
                    + " attempts without looking at limits: declare a maxConcurrent, a rate or a quota first");
        }
        Limit before = existing(name);
        Rate rateInForce = (rate != null) ? newRate : parsed(before.rate());
        Rate quotaInForce = (quota != null) ? newQuota : parsed(before.quota());
        Rate keyRateInForce = (keyRate != null) ? newKeyRate : parsed(before.keyRate());
        this.store.set(
                name,
                TargetLimits.ofRow(
                        (maxConcurrent != null) ? maxConcurrent : before.maxConcurrent(),
                        Rate.perPeriod(rateInForce),
                        Rate.perPeriod(quotaInForce),
                        Rate.perPeriod(keyRateInForce)),
                actor,
                this.clock.instant());
        return new Change(name, limitsOf(before), limitsOf(existing(name)));
    }

    /**
     * Takes a handler's limits back to those this node declares, on every node.
     * @param name the handler
     * @return what changed
     * @throws ManagementException (404) for a handler without limits, (409) if this node does not
     *     declare it, or its limits are the declared ones already
     */
    public Change reset(String name) {
        Limit before = existing(name);
        if (before.declaredMaxConcurrent() == null) {
            throw ManagementException.conflict("This node does not declare '" + name
                    + "': reset its limits through a node that does, which writes the limits it declares");
        }
        if (before.setBy() == null) {
            throw ManagementException.conflict("The limits of '" + name + "' are the declared ones already");
        }
        this.store.reset(name, this.handlers.limitsOf(name));
        return new Change(name, limitsOf(before), limitsOf(existing(name)));
    }

    /**
     * Tells why an attempt due and waiting is not claimed, if its handler's limits are the reason:
     * its limit (or its key's) is full, or its rate's bucket is empty.
     * @param attempt the attempt
     * @return the reason, such as {@code "a slot: 3 of 3 running"}, or empty
     */
    public Optional<String> whyWaiting(ExecutionRecord attempt) {
        if ((attempt.status() != ExecutionStatus.SCHEDULED && attempt.status() != ExecutionStatus.RETRY_SCHEDULED)
                || attempt.dueAt() == null
                || attempt.dueAt().isAfter(this.clock.instant())
                || !this.handlers.limits(attempt.jobName())) {
            return Optional.empty();
        }
        boolean perKey = this.handlers.perKey(attempt.jobName());
        String key = perKey ? ((attempt.limitKey() != null) ? attempt.limitKey() : "") : null;
        Optional<LimitStore.SlotState> found = this.store.slots(attempt.jobName(), key, this.clock.instant());
        if (found.isEmpty()) {
            return Optional.empty();
        }
        LimitStore.SlotState state = found.get();
        if (state.maxConcurrent() > 0 && state.running() >= state.maxConcurrent()) {
            return Optional.of("a slot: " + state.running() + " of " + state.maxConcurrent() + " running"
                    + (perKey ? " of its key" : ""));
        }
        if (state.ratePermits() > 0 && state.tokens() < 1) {
            Rate rate = new Rate(state.ratePermits(), Duration.ofMillis(state.ratePeriodMillis()));
            return Optional.of("a token: the rate " + rate.text() + " is used up");
        }
        if (perKey && state.keyRatePermits() > 0 && state.keyTokens() < 1) {
            Rate keyRate = new Rate(state.keyRatePermits(), Duration.ofMillis(state.keyRatePeriodMillis()));
            return Optional.of("a token of its key: the rate " + keyRate.text() + " of each key is used up");
        }
        if (state.quotaPermits() > 0 && state.quotaUsed() >= state.quotaPermits()) {
            long period = state.quotaPeriodMillis();
            // the row's window, which may run ahead of this node's
            long window = Math.max(Math.floorDiv(this.clock.millis(), period), state.quotaWindow());
            Instant next = Instant.ofEpochMilli((window + 1) * period);
            Rate quota = new Rate(state.quotaPermits(), Duration.ofMillis(period));
            return Optional.of("the quota's next window: " + state.quotaUsed() + " of " + quota.text()
                    + " claimed, the next window begins at " + next);
        }
        return Optional.empty();
    }

    private Limit existing(String name) {
        return limits().stream()
                .filter((limit) -> limit.name().equals(name))
                .findFirst()
                .orElseThrow(() -> ManagementException.notFound("No handler with cluster-wide limits is named '" + name
                        + "': limits are set at run time on handlers that declare maxConcurrent or rate"));
    }

    private Limit view(String name, LimitUse use) {
        Optional<Integer> declaredMost = this.handlers.handler(name).map((handler) -> handler.maxConcurrent());
        Rate declaredRate = this.handlers.rate(name);
        Rate declaredQuota = this.handlers.quota(name);
        Rate declaredKeyRate = this.handlers.keyRate(name);
        if (use == null) {
            // declared here, and no node has claimed its attempts yet: the declared limits, a full bucket
            use = declaredUse(name, declaredRate, declaredQuota, declaredKeyRate);
        }
        Rate rate = (use.ratePermits() > 0) ? new Rate(use.ratePermits(), use.ratePeriod()) : null;
        Rate quota = (use.quotaPermits() > 0) ? new Rate(use.quotaPermits(), use.quotaPeriod()) : null;
        Rate keyRate = (use.keyRate() != null)
                ? new Rate(use.keyRate().permits(), use.keyRate().period())
                : null;
        int most = (use.adaptedMax() > 0) ? use.adaptedMax() : use.maxConcurrent();
        return new Limit(
                name,
                use.maxConcurrent(),
                text(rate),
                declaredMost.orElse(null),
                text(declaredRate),
                this.handlers.perKey(name),
                use.setBy(),
                use.setAt(),
                use.running(),
                use.waiting(),
                use.waitingForSlot(),
                use.waitingForToken(),
                (rate != null) ? Math.floor(use.tokens() * 10) / 10 : null,
                text(quota),
                text(declaredQuota),
                (quota != null) ? use.quotaUsed() : null,
                use.waitingForQuota(),
                (use.adaptedMax() > 0) ? use.adaptedMax() : null,
                text(keyRate),
                text(declaredKeyRate),
                use.keys().stream()
                        .map((key) -> new Limit.KeyUse(
                                key.key(), key.running(), key.waiting(), most > 0 && key.running() >= most))
                        .toList());
    }

    private LimitUse declaredUse(String name, Rate rate, Rate quota, Rate keyRate) {
        int permits = (rate != null) ? rate.permits() : 0;
        return new LimitUse(
                name,
                this.handlers.maxConcurrent(name),
                permits,
                (rate != null) ? rate.period() : null,
                permits,
                null,
                null,
                0,
                0,
                0,
                0,
                (quota != null) ? quota.permits() : 0,
                (quota != null) ? quota.period() : null,
                0,
                0,
                Rate.perPeriod(keyRate),
                0,
                List.of());
    }

    private static Map<String, Object> limitsOf(Limit limit) {
        Map<String, Object> limits = new LinkedHashMap<>();
        limits.put("maxConcurrent", limit.maxConcurrent());
        limits.put("rate", (limit.rate() != null) ? limit.rate() : "none");
        limits.put("quota", (limit.quota() != null) ? limit.quota() : "none");
        limits.put("keyRate", (limit.keyRate() != null) ? limit.keyRate() : "none");
        limits.put("setBy", limit.setBy());
        return limits;
    }

    private static Rate parse(String field, String rate) {
        if (rate == null || "none".equalsIgnoreCase(rate.strip())) {
            return null;
        }
        if (rate.length() > MOST_RATE_TEXT) {
            throw ManagementException.badInput(
                    field, "a " + field + " is written in at most " + MOST_RATE_TEXT + " characters, such as 50/1s");
        }
        try {
            Rate parsed = Rate.parse(rate);
            if (parsed.period().compareTo(Duration.ofDays(366)) > 0) {
                throw ManagementException.badInput(field, "the period of a " + field + " is at most 366 days");
            }
            return parsed;
        } catch (IllegalArgumentException ex) {
            throw ManagementException.badInput(field, ex.getMessage() + ", or none");
        }
    }

    private static Rate parsed(String text) {
        return (text != null) ? Rate.parse(text) : null;
    }

    private static String text(Rate rate) {
        return (rate != null) ? rate.text() : null;
    }
}
