package io.dsched.internal.notify;

import io.dsched.notify.Notification;
import io.dsched.notify.Notification.Kind;
import io.dsched.notify.Notifier;
import io.dsched.notify.WebhookSignature;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Clock;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Posts notifications as JSON to a URL, signed with a secret shared with the receiver.
 *
 * <p>Each request carries {@value #TIMESTAMP_HEADER} (epoch seconds) and {@value #SIGNATURE_HEADER}
 * ({@code sha256=} and the hex HMAC-SHA256, keyed with the secret, of the timestamp, a dot and
 * the exact body: see {@link WebhookSignature}), {@value #EVENT_HEADER} ({@code dead-lettered} or
 * {@code failure-streak}) and {@value #ID_HEADER}, the same on every attempt at one notification.
 *
 * <p>Requests are sent on a thread of the notifier's own, never the job's. A failed request (no
 * connection, a timeout, an answer of 5xx or 429) is tried again after a wait that starts at the
 * initial backoff and doubles, up to the maximum attempts; any other answer but 2xx is given up at
 * once. At most {@value #DEFAULT_CAPACITY} notifications wait or are in flight; beyond that a
 * notification is dropped with a warning and counted in {@link #dropped()}.
 */
public final class WebhookNotifier implements Notifier, AutoCloseable {

    /** Header of the signature, as {@link WebhookSignature#SIGNATURE_HEADER}. */
    public static final String SIGNATURE_HEADER = WebhookSignature.SIGNATURE_HEADER;

    /** Header of the time of the request, as {@link WebhookSignature#TIMESTAMP_HEADER}. */
    public static final String TIMESTAMP_HEADER = WebhookSignature.TIMESTAMP_HEADER;

    /** Header of the event: {@code dead-lettered} or {@code failure-streak}. */
    public static final String EVENT_HEADER = "X-Dsched-Event";

    /** Header of the notification's id, the same on every attempt, for the receiver to ignore a repeat. */
    public static final String ID_HEADER = "X-Dsched-Notification-Id";

    /** How many notifications may wait or be in flight at once. */
    static final int DEFAULT_CAPACITY = 1000;

    private static final Logger logger = LoggerFactory.getLogger(WebhookNotifier.class);

    private final String target;

    private final Set<Kind> events;

    private final Duration timeout;

    private final int maxAttempts;

    private final Duration initialBackoff;

    private final int capacity;

    private final WebhookRequests requests;

    private final HttpClient client;

    private final ScheduledThreadPoolExecutor sender;

    private final AtomicInteger pending = new AtomicInteger();

    private final AtomicLong delivered = new AtomicLong();

    private final AtomicLong failed = new AtomicLong();

    private final AtomicLong dropped = new AtomicLong();

    /**
     * Creates a notifier.
     * @param url where to post, {@code http} or {@code https}
     * @param secret the secret the signatures are computed with
     * @param events the kinds of notification to post; others are ignored
     * @param timeout how long one request may take
     * @param maxAttempts how many requests to make at most for one notification
     * @param initialBackoff the wait before the second request, doubled for each further one
     */
    public WebhookNotifier(
            URI url, String secret, Set<Kind> events, Duration timeout, int maxAttempts, Duration initialBackoff) {
        this(url, secret, events, timeout, maxAttempts, initialBackoff, DEFAULT_CAPACITY, Clock.systemUTC());
    }

    WebhookNotifier(
            URI url,
            String secret,
            Set<Kind> events,
            Duration timeout,
            int maxAttempts,
            Duration initialBackoff,
            int capacity,
            Clock clock) {
        if (url == null || !("http".equalsIgnoreCase(url.getScheme()) || "https".equalsIgnoreCase(url.getScheme()))) {
            throw new IllegalArgumentException("A webhook URL must be http or https, but is " + url);
        }
        if (secret == null || secret.isBlank()) {
            throw new IllegalArgumentException("A webhook needs a secret to sign its requests with");
        }
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("A webhook needs at least 1 attempt, but has " + maxAttempts);
        }
        // logged without path and query: chat webhooks carry their token there
        this.target = url.getScheme() + "://" + url.getHost() + ((url.getPort() != -1) ? ":" + url.getPort() : "");
        this.events = events.isEmpty() ? EnumSet.noneOf(Kind.class) : EnumSet.copyOf(events);
        this.timeout = timeout;
        this.maxAttempts = maxAttempts;
        this.initialBackoff = initialBackoff;
        this.capacity = capacity;
        this.requests = new WebhookRequests(url, secret, timeout, clock);
        this.client = HttpClient.newBuilder()
                .connectTimeout(timeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
        this.sender = new ScheduledThreadPoolExecutor(1, (runnable) -> {
            Thread thread = new Thread(runnable, "dsched-webhook");
            thread.setDaemon(true);
            return thread;
        });
        // on close, requests due now are still sent; retries still waiting are given up
        this.sender.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    }

    @Override
    public void notify(Notification notification) {
        if (!this.events.contains(notification.kind())) {
            return;
        }
        if (this.pending.incrementAndGet() > this.capacity) {
            this.pending.decrementAndGet();
            drop(notification, this.capacity + " notifications are waiting already");
            return;
        }
        try {
            byte[] body = this.requests.body(notification);
            this.sender.execute(() -> attempt(notification, body, 1));
        } catch (RuntimeException ex) {
            this.pending.decrementAndGet();
            drop(notification, (ex instanceof RejectedExecutionException) ? "the notifier is closed" : ex.toString());
        }
    }

    private void attempt(Notification notification, byte[] body, int attempt) {
        try {
            send(notification, body, attempt);
        } catch (RuntimeException ex) {
            giveUp(notification, attempt, ex.toString());
        }
    }

    private void send(Notification notification, byte[] body, int attempt) {
        HttpRequest request = this.requests.request(notification, body);
        String failure;
        boolean retryable;
        try {
            int status = this.client
                    .send(request, HttpResponse.BodyHandlers.discarding())
                    .statusCode();
            if (status >= 200 && status < 300) {
                this.pending.decrementAndGet();
                this.delivered.incrementAndGet();
                logger.debug("Delivered notification {} to {} on attempt {}", notification.id(), this.target, attempt);
                return;
            }
            failure = "answered " + status;
            retryable = status >= 500 || status == 429;
        } catch (IOException ex) {
            failure = ex.toString();
            retryable = true;
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            giveUp(notification, attempt, "interrupted");
            return;
        }
        if (!retryable || attempt >= this.maxAttempts) {
            giveUp(notification, attempt, failure);
            return;
        }
        Duration backoff = this.initialBackoff.multipliedBy(1L << Math.min(attempt - 1, 20));
        logger.debug(
                "Attempt {} at notification {} failed: {} {}; trying again in {}",
                attempt,
                notification.id(),
                this.target,
                failure,
                backoff);
        try {
            this.sender.schedule(
                    () -> attempt(notification, body, attempt + 1), backoff.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException ex) {
            giveUp(notification, attempt, failure + ", and the notifier is closed");
        }
    }

    private void giveUp(Notification notification, int attempts, String failure) {
        this.pending.decrementAndGet();
        this.failed.incrementAndGet();
        logger.warn(
                "Could not deliver the {} notification {} of '{}' after {} attempt(s): {} {}",
                notification.kind().value(),
                notification.id(),
                notification.job(),
                attempts,
                this.target,
                failure);
    }

    private void drop(Notification notification, String reason) {
        logger.warn(
                "Dropping the {} notification {} of '{}' for {}: {} ({} dropped so far)",
                notification.kind().value(),
                notification.id(),
                notification.job(),
                this.target,
                reason,
                this.dropped.incrementAndGet());
    }

    /**
     * Returns how many notifications were delivered.
     * @return the count
     */
    public long delivered() {
        return this.delivered.get();
    }

    /**
     * Returns how many notifications were given up after failed requests.
     * @return the count
     */
    public long failed() {
        return this.failed.get();
    }

    /**
     * Returns how many notifications were dropped unsent, because too many were waiting or the
     * notifier was closed.
     * @return the count
     */
    public long dropped() {
        return this.dropped.get();
    }

    /**
     * Sends what is due, waiting at most one request's timeout, and gives up the rest.
     */
    @Override
    public void close() {
        this.sender.shutdown();
        try {
            if (!this.sender.awaitTermination(this.timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                this.sender.shutdownNow();
            }
        } catch (InterruptedException ex) {
            this.sender.shutdownNow();
            Thread.currentThread().interrupt();
        }
        int left = this.pending.get();
        if (left > 0) {
            logger.warn("{} notification(s) for {} not delivered: the node is stopping", left, this.target);
        }
    }
}
