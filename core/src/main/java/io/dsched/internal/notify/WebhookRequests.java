package io.dsched.internal.notify;

import io.dsched.notify.Notification;
import io.dsched.notify.WebhookSignature;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import tools.jackson.databind.json.JsonMapper;

/** Builds a webhook's requests: a notification's JSON body, and each attempt's headers and signature. */
final class WebhookRequests {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final URI url;

    private final String secret;

    private final Duration timeout;

    private final Clock clock;

    WebhookRequests(URI url, String secret, Duration timeout, Clock clock) {
        this.url = url;
        this.secret = secret;
        this.timeout = timeout;
        this.clock = clock;
    }

    /** The body of a notification, the same bytes on every attempt. */
    byte[] body(Notification notification) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("id", notification.id());
        body.put("event", notification.kind().value());
        body.put("job", notification.job());
        body.put("executionId", notification.executionId());
        body.put("attempt", notification.attempt());
        body.put("scheduledAt", notification.scheduledAt().toString());
        body.put("errorClass", notification.errorClass());
        body.put("errorMessage", notification.errorMessage());
        body.put("streak", notification.streak());
        body.put("node", notification.node());
        body.put("time", notification.time().toString());
        return JSON.writeValueAsBytes(body);
    }

    /** One attempt's request, signed at the time it is made. */
    HttpRequest request(Notification notification, byte[] body) {
        String timestamp = String.valueOf(this.clock.instant().getEpochSecond());
        return HttpRequest.newBuilder(this.url)
                .timeout(this.timeout)
                .header("Content-Type", "application/json")
                .header("User-Agent", "dsched")
                .header(WebhookNotifier.EVENT_HEADER, notification.kind().value())
                .header(WebhookNotifier.ID_HEADER, notification.id())
                .header(WebhookNotifier.TIMESTAMP_HEADER, timestamp)
                .header(WebhookNotifier.SIGNATURE_HEADER, WebhookSignature.sign(this.secret, timestamp, body))
                .POST(HttpRequest.BodyPublishers.ofByteArray(body))
                .build();
    }
}
