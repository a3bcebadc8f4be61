package io.dsched.internal.notify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

import io.dsched.notify.Notification;
import io.dsched.notify.Notification.Kind;
import io.dsched.notify.WebhookSignature;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.EnumSet;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;
import java.util.function.BooleanSupplier;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/** What the webhook sends, signs, retries and gives up, against a local HTTP server. */
class WebhookNotifierTests {

    private static final String SECRET = "s3cret-shared-with-the-receiver";

    private static final Notification DEAD_LETTER = new Notification(
            "dead-lettered-42",
            Kind.DEAD_LETTERED,
            "settle",
            42,
            3,
            Instant.parse("2030-01-01T11:00:00Z"),
            "java.lang.IllegalStateException",
            "partner down: naïve café",
            1,
            "node-1",
            Instant.parse("2030-01-01T11:00:05Z"));

    private final WebhookReceiver receiver = new WebhookReceiver();

    private WebhookNotifier notifier;

    @AfterEach
    void stop() {
        if (this.notifier != null) {
            this.notifier.close();
        }
        this.receiver.close();
    }

    @Test
    void postsTheNotificationAsSignedJson() {
        this.notifier = notifier(EnumSet.allOf(Kind.class), Duration.ofSeconds(5), 5);
        long before = Instant.now().getEpochSecond();

        this.notifier.notify(DEAD_LETTER);

        awaitUntil(() -> this.notifier.delivered() == 1);
        WebhookReceiver.Request request = this.receiver.requests().get(0);
        assertThat(this.receiver.requests()).hasSize(1);
        assertThat(request.method()).isEqualTo("POST");
        assertThat(request.header("Content-Type")).isEqualTo("application/json");
        assertThat(request.header(WebhookNotifier.EVENT_HEADER)).isEqualTo("dead-lettered");
        assertThat(request.header(WebhookNotifier.ID_HEADER)).isEqualTo("dead-lettered-42");
        assertThat(Long.parseLong(request.header(WebhookNotifier.TIMESTAMP_HEADER)))
                .isBetween(before, Instant.now().getEpochSecond());
        assertThat(JsonMapper.builder().build().readValue(request.text(), new TypeReference<Map<String, Object>>() {}))
                .containsExactly(
                        Map.entry("id", "dead-lettered-42"),
                        Map.entry("event", "dead-lettered"),
                        Map.entry("job", "settle"),
                        Map.entry("executionId", 42),
                        Map.entry("attempt", 3),
                        Map.entry("scheduledAt", "2030-01-01T11:00:00Z"),
                        Map.entry("errorClass", "java.lang.IllegalStateException"),
                        Map.entry("errorMessage", "partner down: naïve café"),
                        Map.entry("streak", 1),
                        Map.entry("node", "node-1"),
                        Map.entry("time", "2030-01-01T11:00:05Z"));
    }

    @Test
    void theSignatureCoversTheTimestampAndTheExactBodyAndOnlyTheSecretMakesIt() {
        this.notifier = notifier(EnumSet.allOf(Kind.class), Duration.ofSeconds(5), 5);

        this.notifier.notify(DEAD_LETTER);

        awaitUntil(() -> this.notifier.delivered() == 1);
        WebhookReceiver.Request request = this.receiver.requests().get(0);
        String timestamp = request.header(WebhookNotifier.TIMESTAMP_HEADER);
        String signature = request.header(WebhookNotifier.SIGNATURE_HEADER);
        assertThat(signature).isEqualTo(hmacSha256(SECRET, timestamp + "." + request.text()));
        assertThat(WebhookSignature.verify(SECRET, timestamp, request.body(), signature))
                .isTrue();
        assertThat(WebhookSignature.sign("another-secret", timestamp, request.body()))
                .isNotEqualTo(signature);
        assertThat(WebhookSignature.verify("another-secret", timestamp, request.body(), signature))
                .isFalse();
        assertThat(WebhookSignature.verify(
                        SECRET, String.valueOf(Long.parseLong(timestamp) + 1), request.body(), signature))
                .isFalse();
        assertThat(WebhookSignature.verify(
                        SECRET,
                        timestamp,
                        request.text().replace("settle", "settl3").getBytes(),
                        signature))
                .isFalse();
    }

    @Test
    void a503IsRetriedWithTheSameNotificationUntilItIsDelivered() {
        this.receiver.answer(503, 503);
        this.notifier = notifier(EnumSet.allOf(Kind.class), Duration.ofSeconds(5), 5);

        this.notifier.notify(DEAD_LETTER);

        awaitUntil(() -> this.notifier.delivered() == 1);
        assertThat(this.receiver.requests()).hasSize(3).allSatisfy((request) -> {
            assertThat(request.header(WebhookNotifier.ID_HEADER)).isEqualTo("dead-lettered-42");
            assertThat(request.body()).isEqualTo(this.receiver.requests().get(0).body());
        });
        assertThat(this.notifier.failed()).isZero();
    }

    @Test
    void a429IsRetried() {
        this.receiver.answer(429);
        this.notifier = notifier(EnumSet.allOf(Kind.class), Duration.ofSeconds(5), 5);

        this.notifier.notify(DEAD_LETTER);

        awaitUntil(() -> this.notifier.delivered() == 1);
        assertThat(this.receiver.requests()).hasSize(2);
    }

    @Test
    void a400IsNotRetried() {
        this.receiver.answer(400);
        this.notifier = notifier(EnumSet.allOf(Kind.class), Duration.ofSeconds(5), 5);

        this.notifier.notify(DEAD_LETTER);

        awaitUntil(() -> this.notifier.failed() == 1);
        assertThat(this.receiver.requests()).hasSize(1);
        assertThat(this.notifier.delivered()).isZero();
    }

    @Test
    void givesUpAfterTheMaximumAttempts() {
        this.receiver.answer(500, 502, 503, 504);
        this.notifier = notifier(EnumSet.allOf(Kind.class), Duration.ofSeconds(5), 3);

        this.notifier.notify(DEAD_LETTER);

        awaitUntil(() -> this.notifier.failed() == 1);
        assertThat(this.receiver.requests()).hasSize(3);
        assertThat(this.notifier.delivered()).isZero();
    }

    @Test
    void aRequestThatTimesOutIsRetried() {
        this.receiver.answer(WebhookReceiver.STALL);
        this.notifier = notifier(EnumSet.allOf(Kind.class), Duration.ofSeconds(2), 5);

        this.notifier.notify(DEAD_LETTER);

        awaitUntil(() -> this.notifier.delivered() == 1);
        assertThat(this.receiver.requests()).hasSize(2);
    }

    @Test
    void anUnreachableReceiverIsTriedUpToTheMaximumAttempts() {
        URI closed = this.receiver.url();
        this.receiver.close();
        this.notifier = new WebhookNotifier(
                closed,
                SECRET,
                EnumSet.allOf(Kind.class),
                Duration.ofSeconds(2),
                3,
                Duration.ofMillis(200),
                WebhookNotifier.DEFAULT_CAPACITY,
                Clock.systemUTC());
        long started = System.nanoTime();

        this.notifier.notify(DEAD_LETTER);

        awaitUntil(() -> this.notifier.failed() == 1);
        // the waits before the second and third attempts: 200 ms, then 400 ms
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(600));
    }

    @Test
    void postsOnlyTheEventsItIsToldTo() {
        this.notifier = notifier(EnumSet.of(Kind.DEAD_LETTERED), Duration.ofSeconds(5), 5);

        this.notifier.notify(new Notification(
                "failure-streak-41",
                Kind.FAILURE_STREAK,
                "settle",
                41,
                1,
                Instant.parse("2030-01-01T10:59:00Z"),
                "java.lang.IllegalStateException",
                "partner down",
                3,
                "node-1",
                Instant.parse("2030-01-01T10:59:01Z")));
        this.notifier.notify(DEAD_LETTER);

        awaitUntil(() -> this.notifier.delivered() == 1);
        assertThat(this.receiver.requests())
                .extracting((request) -> request.header(WebhookNotifier.EVENT_HEADER))
                .containsExactly("dead-lettered");
    }

    @Test
    void dropsWhatDoesNotFitInTheQueueAndCountsIt() {
        this.receiver.answer(WebhookReceiver.STALL);
        this.notifier = new WebhookNotifier(
                this.receiver.url(),
                SECRET,
                EnumSet.allOf(Kind.class),
                Duration.ofSeconds(10),
                5,
                Duration.ofMillis(50),
                2,
                Clock.systemUTC());

        for (int i = 0; i < 5; i++) {
            this.notifier.notify(DEAD_LETTER);
        }

        assertThat(this.notifier.dropped()).isEqualTo(3);
        this.receiver.release();
        awaitUntil(() -> this.notifier.delivered() == 2);
        assertThat(this.receiver.requests()).hasSize(2);
    }

    @Test
    void dropsWhatIsNotifiedAfterItIsClosed() {
        this.notifier = notifier(EnumSet.allOf(Kind.class), Duration.ofSeconds(5), 5);
        this.notifier.close();

        this.notifier.notify(DEAD_LETTER);

        assertThat(this.notifier.dropped()).isEqualTo(1);
    }

    @Test
    void closingSendsWhatIsDueFirst() {
        this.notifier = notifier(EnumSet.allOf(Kind.class), Duration.ofSeconds(5), 5);
        for (int i = 0; i < 3; i++) {
            this.notifier.notify(DEAD_LETTER);
        }

        this.notifier.close();

        assertThat(this.notifier.delivered()).isEqualTo(3);
        assertThat(this.receiver.requests()).hasSize(3);
    }

    @Test
    void refusesAUrlThatIsNotHttpAndAMissingSecret() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new WebhookNotifier(
                        URI.create("file:///etc/passwd"),
                        SECRET,
                        EnumSet.allOf(Kind.class),
                        Duration.ofSeconds(1),
                        1,
                        Duration.ofSeconds(1)))
                .withMessageContaining("http or https");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new WebhookNotifier(
                        this.receiver.url(), " ", EnumSet.allOf(Kind.class), Duration.ofSeconds(1), 1, Duration.ZERO))
                .withMessageContaining("secret");
    }

    private WebhookNotifier notifier(Set<Kind> events, Duration timeout, int maxAttempts) {
        return new WebhookNotifier(this.receiver.url(), SECRET, events, timeout, maxAttempts, Duration.ofMillis(50));
    }

    private static void awaitUntil(BooleanSupplier condition) {
        await().atMost(Duration.ofSeconds(20)).until(condition::getAsBoolean);
    }

    /** The signature computed the way a receiver in another language would: HMAC-SHA256 over "timestamp.body". */
    private static String hmacSha256(String secret, String signed) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return "sha256=" + HexFormat.of().formatHex(mac.doFinal(signed.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException ex) {
            throw new IllegalStateException(ex);
        }
    }
}
