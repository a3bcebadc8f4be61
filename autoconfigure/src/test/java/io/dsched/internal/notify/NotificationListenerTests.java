package io.dsched.internal.notify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.tuple;

import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.Outcome;
import io.dsched.notify.Notification;
import io.dsched.notify.Notification.Kind;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which outcomes raise which notifications, without a database: attempts are handed to the listener directly. */
class NotificationListenerTests {

    private static final Instant NOW = Instant.parse("2030-01-01T12:00:00Z");

    private static final Instant BASE = Instant.parse("2030-01-01T11:00:00Z");

    private final List<Notification> sent = new ArrayList<>();

    private final NotificationListener listener =
            new NotificationListener(() -> List.of(this.sent::add), 3, "node-1", Clock.fixed(NOW, ZoneOffset.UTC));

    private long ids;

    @Test
    void aDeadLetterRaisesOneNotificationWithTheFailureButNoStackTrace() {
        ExecutionRecord attempt = attempt("settle", BASE, 2);

        fail(attempt, Outcome.DEAD_LETTERED, new IllegalStateException("partner down"));

        assertThat(this.sent).singleElement().satisfies((notification) -> {
            assertThat(notification.kind()).isEqualTo(Kind.DEAD_LETTERED);
            assertThat(notification.id()).isEqualTo("dead-lettered-" + attempt.id());
            assertThat(notification.job()).isEqualTo("settle");
            assertThat(notification.executionId()).isEqualTo(attempt.id());
            assertThat(notification.attempt()).isEqualTo(2);
            assertThat(notification.scheduledAt()).isEqualTo(BASE);
            assertThat(notification.errorClass()).isEqualTo(IllegalStateException.class.getName());
            assertThat(notification.errorMessage()).isEqualTo("partner down");
            assertThat(notification.streak()).isEqualTo(1);
            assertThat(notification.node()).isEqualTo("node-1");
            assertThat(notification.time()).isEqualTo(NOW);
        });
    }

    @Test
    void aStreakIsReportedOnceWhenItReachesTheThreshold() {
        for (int fire = 0; fire < 5; fire++) {
            fail(attempt("settle", BASE.plusSeconds(fire), 1), Outcome.RETRY_SCHEDULED, new RuntimeException("no"));
        }

        assertThat(this.sent).singleElement().satisfies((notification) -> {
            assertThat(notification.kind()).isEqualTo(Kind.FAILURE_STREAK);
            assertThat(notification.streak()).isEqualTo(3);
            assertThat(notification.scheduledAt()).isEqualTo(BASE.plusSeconds(2));
        });
        assertThat(this.listener.streaks().length("settle")).isEqualTo(5);
    }

    @Test
    void furtherFailedAttemptsOfOneFireCountAsOneFailedFire() {
        for (int attempt = 1; attempt <= 4; attempt++) {
            fail(attempt("settle", BASE, attempt), Outcome.RETRY_SCHEDULED, new RuntimeException("no"));
        }
        fail(attempt("settle", BASE, 5), Outcome.DEAD_LETTERED, new RuntimeException("no"));

        assertThat(this.sent).extracting(Notification::kind).containsExactly(Kind.DEAD_LETTERED);
        assertThat(this.listener.streaks().length("settle")).isEqualTo(1);
    }

    @Test
    void theFailedShardsOfOneFireCountAsOneFailedFire() {
        for (int shard = 0; shard < 4; shard++) {
            fail(shard("settle", BASE, shard, 4), Outcome.RETRY_SCHEDULED, new RuntimeException("no"));
        }
        assertThat(this.sent).isEmpty();
        assertThat(this.listener.streaks().length("settle")).isEqualTo(1);
        fail(shard("settle", BASE.plusSeconds(60), 0, 4), Outcome.RETRY_SCHEDULED, new RuntimeException("no"));
        assertThat(this.listener.streaks().length("settle")).isEqualTo(2);
    }

    @Test
    void aSuccessEndsTheStreakAndANewStreakIsReportedAgain() {
        fail(attempt("settle", BASE, 1), Outcome.RETRY_SCHEDULED, new RuntimeException("no"));
        fail(attempt("settle", BASE.plusSeconds(1), 1), Outcome.RETRY_SCHEDULED, new RuntimeException("no"));
        succeed(attempt("settle", BASE.plusSeconds(2), 1));
        fail(attempt("settle", BASE.plusSeconds(3), 1), Outcome.RETRY_SCHEDULED, new RuntimeException("no"));
        fail(attempt("settle", BASE.plusSeconds(4), 1), Outcome.RETRY_SCHEDULED, new RuntimeException("no"));
        assertThat(this.sent).isEmpty();

        fail(attempt("settle", BASE.plusSeconds(5), 1), Outcome.RETRY_SCHEDULED, new RuntimeException("no"));
        succeed(attempt("settle", BASE.plusSeconds(6), 1));
        for (int fire = 7; fire < 10; fire++) {
            fail(attempt("settle", BASE.plusSeconds(fire), 1), Outcome.RETRY_SCHEDULED, new RuntimeException("no"));
        }

        assertThat(this.sent)
                .extracting(Notification::kind, Notification::scheduledAt)
                .containsExactly(
                        tuple(Kind.FAILURE_STREAK, BASE.plusSeconds(5)),
                        tuple(Kind.FAILURE_STREAK, BASE.plusSeconds(9)));
    }

    @Test
    void streaksAreCountedPerJob() {
        fail(attempt("settle", BASE, 1), Outcome.RETRY_SCHEDULED, new RuntimeException("no"));
        fail(attempt("export", BASE, 1), Outcome.RETRY_SCHEDULED, new RuntimeException("no"));
        fail(attempt("settle", BASE.plusSeconds(1), 1), Outcome.RETRY_SCHEDULED, new RuntimeException("no"));
        succeed(attempt("export", BASE.plusSeconds(1), 1));

        assertThat(this.listener.streaks().length("settle")).isEqualTo(2);
        assertThat(this.listener.streaks().length("export")).isZero();
    }

    @Test
    void anAttemptWhoseOutcomeWasLostNeitherCountsNorNotifies() {
        for (int fire = 0; fire < 3; fire++) {
            fail(attempt("settle", BASE.plusSeconds(fire), 1), Outcome.LOST, new RuntimeException("no"));
        }

        assertThat(this.sent).isEmpty();
        assertThat(this.listener.streaks().length("settle")).isZero();
    }

    @Test
    void aFailingNotifierDoesNotKeepTheOthersFromTheNotification() {
        List<Notification> received = new ArrayList<>();
        NotificationListener listener = new NotificationListener(
                () -> List.of(
                        (notification) -> {
                            throw new IllegalStateException("chat is down");
                        },
                        received::add),
                3,
                "node-1",
                Clock.systemUTC());

        listener.finished(attempt("settle", BASE, 1), Outcome.DEAD_LETTERED, Duration.ZERO, new RuntimeException("no"));

        assertThat(received).extracting(Notification::kind).containsExactly(Kind.DEAD_LETTERED);
    }

    @Test
    void aLongErrorMessageIsCut() {
        fail(attempt("settle", BASE, 1), Outcome.DEAD_LETTERED, new RuntimeException("x".repeat(10_000)));

        assertThat(this.sent.get(0).errorMessage())
                .hasSize(Notification.MAX_ERROR_MESSAGE)
                .endsWith("…");
    }

    @Test
    void refusesAThresholdBelowOne() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new NotificationListener(List::of, 0, "node-1", Clock.systemUTC()))
                .withMessageContaining("at least 1 fire");
    }

    private void fail(ExecutionRecord attempt, Outcome outcome, Throwable failure) {
        this.listener.finished(attempt, outcome, Duration.ofMillis(5), failure);
    }

    private void succeed(ExecutionRecord attempt) {
        this.listener.finished(attempt, Outcome.SUCCEEDED, Duration.ofMillis(5), null);
    }

    private ExecutionRecord attempt(String job, Instant scheduledAt, int attempt) {
        return attempt(job, scheduledAt, attempt, ExecutionRecord.idempotencyKey(job, scheduledAt));
    }

    private ExecutionRecord shard(String job, Instant scheduledAt, int shard, int shards) {
        return attempt(job, scheduledAt, 1, ExecutionRecord.idempotencyKey(job, scheduledAt, shard, shards));
    }

    private ExecutionRecord attempt(String job, Instant scheduledAt, int attempt, String key) {
        ExecutionRecord first =
                ExecutionRecord.claim(job, scheduledAt, "node-1", NOW).withId(++this.ids);
        return new ExecutionRecord(
                first.id(),
                job,
                scheduledAt,
                attempt,
                key,
                first.status(),
                first.nodeId(),
                first.startedAt(),
                null,
                null,
                null,
                null,
                first.origin(),
                null,
                null,
                0,
                null);
    }
}
