package io.dsched.jobs;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A request to run a handler once, with a payload, now, at a time or after a delay.
 *
 * <pre>{@code
 * jobScheduler.submit(OneOff.of("order.timeout", new OrderTimeout(orderId))
 *         .after(Duration.ofMinutes(15))
 *         .withKey("order-" + orderId + "-timeout"));
 * }</pre>
 */
public final class OneOff {

    /** Longest window a key may deduplicate for: every database stores its end. */
    public static final Duration MAX_UNIQUE_FOR = Duration.ofDays(3650);

    private final String handler;

    private final Object payload;

    private final Instant at;

    private final Duration delay;

    private final String key;

    private final Duration uniqueFor;

    private final Integer priority;

    private OneOff(
            String handler,
            Object payload,
            Instant at,
            Duration delay,
            String key,
            Duration uniqueFor,
            Integer priority) {
        this.handler = handler;
        this.payload = payload;
        this.at = at;
        this.delay = delay;
        this.key = key;
        this.uniqueFor = uniqueFor;
        this.priority = priority;
    }

    /**
     * Starts a request to run a handler with a payload, as soon as possible.
     * @param handler the {@code @JobHandler} name
     * @param payload what the handler receives, written as JSON; may be {@code null}
     * @return the request
     */
    public static OneOff of(String handler, Object payload) {
        Objects.requireNonNull(handler, "handler");
        return new OneOff(handler, payload, null, null, null, null, null);
    }

    /**
     * Runs the job at a time.
     * @param at when
     * @return a new request
     */
    public OneOff at(Instant at) {
        return new OneOff(
                this.handler,
                this.payload,
                Objects.requireNonNull(at, "at"),
                null,
                this.key,
                this.uniqueFor,
                this.priority);
    }

    /**
     * Runs the job after a delay from its submission.
     * @param delay how long after
     * @return a new request
     */
    public OneOff after(Duration delay) {
        if (delay.isNegative()) {
            throw new IllegalArgumentException("The delay of a one-off job must not be negative, was " + delay);
        }
        return new OneOff(this.handler, this.payload, null, delay, this.key, this.uniqueFor, this.priority);
    }

    /**
     * Spreads a batch over a window, so that its jobs do not all fall due at once: the i-th of n
     * falls due {@code i * window / n} after it would have, evenly from the first (not delayed) to
     * the last (delayed by nearly the whole window). Submit what it returns with
     * {@link JobScheduler#submitAll}.
     * @param batch the one-off jobs, in the order they are to fall due
     * @param window the window to spread them over
     * @return the same jobs, each due at its place in the window
     */
    public static List<OneOff> spreadOver(List<OneOff> batch, Duration window) {
        if (window.isNegative()) {
            throw new IllegalArgumentException(
                    "The window to spread one-off jobs over must not be negative, was " + window);
        }
        List<OneOff> spread = new ArrayList<>(batch.size());
        for (int i = 0; i < batch.size(); i++) {
            OneOff job = batch.get(i);
            Duration offset = window.multipliedBy(i).dividedBy(batch.size());
            spread.add(
                    (job.at != null)
                            ? new OneOff(
                                    job.handler,
                                    job.payload,
                                    job.at.plus(offset),
                                    null,
                                    job.key,
                                    job.uniqueFor,
                                    job.priority)
                            : new OneOff(
                                    job.handler,
                                    job.payload,
                                    null,
                                    (job.delay != null) ? job.delay.plus(offset) : offset,
                                    job.key,
                                    job.uniqueFor,
                                    job.priority));
        }
        return spread;
    }

    /**
     * Makes the submission idempotent: a second submission with the same key (for the same
     * handler) returns the first job and schedules nothing. The key deduplicates for as long as
     * the history keeps the job's attempts ({@code dsched.history.retention} after the submission,
     * or after the run if later); {@link #uniqueFor(Duration)} sets a window of its own.
     * @param key the caller's key, at most 200 characters
     * @return a new request
     */
    public OneOff withKey(String key) {
        Objects.requireNonNull(key, "key");
        if (key.isBlank() || key.length() > 200) {
            throw new IllegalArgumentException("An idempotency key has 1 to 200 characters");
        }
        return new OneOff(this.handler, this.payload, this.at, this.delay, key, this.uniqueFor, this.priority);
    }

    /**
     * Keeps the key deduplicating for a window from the submission, whatever the history keeps:
     * a submission with the same key within it schedules nothing, even after housekeeping deleted
     * the first job's attempts.
     * @param window how long the key deduplicates, longer than zero
     * @return a new request
     * @throws IllegalStateException if the request has no key yet
     */
    public OneOff uniqueFor(Duration window) {
        if (this.key == null) {
            throw new IllegalStateException("Give the key first: withKey(key).uniqueFor(window)");
        }
        if (window.isNegative() || window.isZero() || window.compareTo(MAX_UNIQUE_FOR) > 0) {
            throw new IllegalArgumentException("The window of a key must be longer than zero and at most "
                    + MAX_UNIQUE_FOR.toDays() + " days, was " + window);
        }
        return new OneOff(this.handler, this.payload, this.at, this.delay, this.key, window, this.priority);
    }

    /**
     * Sets the order in which the job's attempts are claimed among those due: a higher priority
     * first, then the earliest due, on every node. Without it the job has its handler's
     * ({@code @JobHandler(priority = ...)}, 0 unless set). Retries and replays keep it.
     * @param priority higher first, negative for work that gives way to the default
     * @return a new request
     */
    public OneOff priority(int priority) {
        return new OneOff(this.handler, this.payload, this.at, this.delay, this.key, this.uniqueFor, priority);
    }

    /**
     * The handler that runs the job.
     * @return the {@code @JobHandler}'s name
     */
    public String handler() {
        return this.handler;
    }

    /**
     * The payload, as given.
     * @return the payload, or {@code null}
     */
    public Object payload() {
        return this.payload;
    }

    /**
     * When the job is due, submitted now.
     * @param now the instant of submission
     * @return the instant given to {@link #at(Instant)}, or {@code now} plus the delay given to
     *     {@link #after(Duration)}, or {@code now}
     */
    public Instant dueAt(Instant now) {
        if (this.at != null) {
            return this.at;
        }
        return (this.delay != null) ? now.plus(this.delay) : now;
    }

    /**
     * The caller's idempotency key.
     * @return the key given to {@link #withKey(String)}, or {@code null}
     */
    public String key() {
        return this.key;
    }

    /**
     * How long the key deduplicates from the submission.
     * @return the window given to {@link #uniqueFor(Duration)}, or {@code null} for as long as
     *     the history keeps the job's attempts
     */
    public Duration uniqueWindow() {
        return this.uniqueFor;
    }

    /**
     * The order in which the job's attempts are claimed, if set.
     * @return the priority given to {@link #priority(int)}, or {@code null} for the handler's
     */
    public Integer priority() {
        return this.priority;
    }
}
