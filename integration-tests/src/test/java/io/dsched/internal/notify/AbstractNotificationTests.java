package io.dsched.internal.notify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.Outcome;
import io.dsched.internal.execution.FireExecutor;
import io.dsched.notify.WebhookSignature;
import io.dsched.test.ClusterNode;
import io.dsched.test.TestCluster;
import io.dsched.test.TestDatabases;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AutoClose;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.core.type.TypeReference;
import tools.jackson.databind.json.JsonMapper;

/**
 * The webhooks a real node posts to a local HTTP server when its jobs are dead-lettered or fail
 * fire after fire. Run against each database by a small subclass.
 */
abstract class AbstractNotificationTests {

    private static final String SECRET = "shared-with-the-receiver";

    // closed after the cluster, whose nodes may still post to it as they stop
    @AutoClose
    private final WebhookReceiver receiver = new WebhookReceiver();

    @RegisterExtension
    final TestCluster cluster = TestCluster.of(this::kind);

    private ClusterNode node;

    private final Instant base = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(60);

    protected abstract TestDatabases.Kind kind();

    @BeforeEach
    void startNode() {
        this.node = this.cluster.start(
                "node-1",
                NotifyJobs.class,
                Map.of(
                        "dsched.notify.webhook.url",
                        this.receiver.url().toString(),
                        "dsched.notify.webhook.secret",
                        SECRET,
                        "dsched.notify.webhook.initial-backoff",
                        "100ms",
                        "dsched.notify.failure-streak",
                        3));
    }

    @Test
    void aDeadLetterIsPostedOnceWithASignatureTheReceiverVerifies() {
        assertThat(fire("doomed", this.base)).isEqualTo(Outcome.DEAD_LETTERED);

        awaitDelivered(1);
        ExecutionRecord attempt =
                this.cluster.executions().findLatestByJobName("doomed", 1).get(0);
        WebhookReceiver.Request request = this.receiver.requests().get(0);
        assertThat(this.receiver.requests()).hasSize(1);
        assertThat(request.header(WebhookNotifier.EVENT_HEADER)).isEqualTo("dead-lettered");
        assertThat(request.header(WebhookNotifier.ID_HEADER)).isEqualTo("dead-lettered-" + attempt.id());
        assertThat(json(request))
                .containsOnlyKeys(
                        "id",
                        "event",
                        "job",
                        "executionId",
                        "attempt",
                        "scheduledAt",
                        "errorClass",
                        "errorMessage",
                        "streak",
                        "node",
                        "time")
                .containsEntry("event", "dead-lettered")
                .containsEntry("job", "doomed")
                .containsEntry("executionId", attempt.id().intValue())
                .containsEntry("attempt", 1)
                .containsEntry("scheduledAt", this.base.toString())
                .containsEntry("errorClass", IllegalStateException.class.getName())
                .containsEntry("errorMessage", "partner down")
                .containsEntry("streak", 1)
                .containsEntry("node", "node-1");
        String timestamp = request.header(WebhookNotifier.TIMESTAMP_HEADER);
        String signature = request.header(WebhookNotifier.SIGNATURE_HEADER);
        assertThat(WebhookSignature.verify(SECRET, timestamp, request.body(), signature))
                .isTrue();
        assertThat(WebhookSignature.verify("a-wrong-secret", timestamp, request.body(), signature))
                .isFalse();
    }

    @Test
    void aJobFailingThreeFiresInARowIsPostedOnceAsAStreak() {
        for (int fire = 0; fire < 4; fire++) {
            assertThat(fire("flaky", this.base.plusSeconds(fire))).isEqualTo(Outcome.RETRY_SCHEDULED);
        }

        awaitDelivered(1);
        // posted in order: once the dead letter is in, a second streak notification would be too
        fire("doomed", this.base);
        awaitDelivered(2);
        assertThat(this.receiver.requests())
                .extracting((request) -> request.header(WebhookNotifier.EVENT_HEADER))
                .containsExactly("failure-streak", "dead-lettered");
        assertThat(json(this.receiver.requests().get(0)))
                .containsEntry("job", "flaky")
                .containsEntry("streak", 3)
                .containsEntry("scheduledAt", this.base.plusSeconds(2).toString())
                .containsEntry("errorMessage", "flaky failure");
    }

    @Test
    void aSuccessEndsTheStreak() {
        NotifyJobs.Jobs jobs = this.node.bean(NotifyJobs.Jobs.class);
        fire("flaky", this.base);
        fire("flaky", this.base.plusSeconds(1));
        jobs.failing.set(false);
        assertThat(fire("flaky", this.base.plusSeconds(2))).isEqualTo(Outcome.SUCCEEDED);
        jobs.failing.set(true);
        fire("flaky", this.base.plusSeconds(3));
        fire("flaky", this.base.plusSeconds(4));

        fire("doomed", this.base);
        awaitDelivered(1);
        fire("flaky", this.base.plusSeconds(5));
        awaitDelivered(2);

        assertThat(this.receiver.requests())
                .extracting((request) -> request.header(WebhookNotifier.EVENT_HEADER))
                .containsExactly("dead-lettered", "failure-streak");
        assertThat(json(this.receiver.requests().get(1)))
                .containsEntry("streak", 3)
                .containsEntry("scheduledAt", this.base.plusSeconds(5).toString());
    }

    @Test
    void aReceiverAnswering503TwiceGetsTheNotificationOnTheThirdRequest() {
        this.receiver.answer(503, 503);

        fire("doomed", this.base);

        awaitDelivered(1);
        List<WebhookReceiver.Request> requests = this.receiver.requests();
        assertThat(requests).hasSize(3);
        assertThat(requests)
                .extracting((request) -> request.header(WebhookNotifier.ID_HEADER))
                .containsOnly(requests.get(0).header(WebhookNotifier.ID_HEADER));
    }

    /** Fires a job once its guard is free, so that the fire runs now rather than waiting for the guard. */
    private Outcome fire(String job, Instant scheduledAt) {
        JdbcTemplate jdbc = new JdbcTemplate(this.cluster.observer());
        String held = "SELECT COUNT(*) FROM dsched_lock WHERE name = ? AND lock_until > "
                + this.cluster.platform().dialect().lockClockSql();
        await().atMost(Duration.ofSeconds(10)).until(() -> jdbc.queryForObject(held, Integer.class, job) == 0);
        return this.node.bean(FireExecutor.class).fire(job, scheduledAt);
    }

    private void awaitDelivered(long count) {
        WebhookNotifier webhook = this.node.bean(WebhookNotifier.class);
        await().atMost(Duration.ofSeconds(20)).until(() -> webhook.delivered() == count);
    }

    private static Map<String, Object> json(WebhookReceiver.Request request) {
        return JsonMapper.builder().build().readValue(request.text(), new TypeReference<Map<String, Object>>() {});
    }
}
