package io.dsched.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dsched.execution.ExecutionOrigin;
import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.ExecutionStatus;
import io.dsched.internal.store.ExecutionRepository;
import io.dsched.sample.order.Order;
import io.dsched.sample.order.OrderJobs;
import io.dsched.sample.order.OrderService;
import io.dsched.sample.order.OrderStatus;
import io.dsched.sample.order.OrderTotals;
import java.math.BigDecimal;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import tools.jackson.databind.JsonNode;

/**
 * The sample's shop and its jobs over HTTP, as its users: the operator places and pays orders and
 * operates jobs through the dsched endpoint, the admin changes a schedule, the viewer reads.
 */
@SpringBootTest(
        webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = {
            "spring.datasource.url=jdbc:h2:mem:sample;DB_CLOSE_DELAY=-1",
            "dsched.node-id=test-node",
            "sample.reconcile.cron=*/2 * * * * *",
            "sample.payment-timeout=2s",
            "sample.users.viewer-password=" + SampleApplicationTests.PASSWORD,
            "sample.users.operator-password=" + SampleApplicationTests.PASSWORD,
            "sample.users.admin-password=" + SampleApplicationTests.PASSWORD
        })
class SampleApplicationTests {

    static final String PASSWORD = "sample-application-tests";

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @LocalServerPort
    private int port;

    @Autowired
    private ExecutionRepository executions;

    private SampleClient viewer;

    private SampleClient operator;

    private SampleClient admin;

    @BeforeEach
    void createClients() {
        String base = "http://localhost:" + this.port;
        this.viewer = SampleClient.basic(base, "viewer", PASSWORD);
        this.operator = SampleClient.basic(base, "operator", PASSWORD);
        this.admin = SampleClient.basic(base, "admin", PASSWORD);
    }

    @Test
    void theReconciliationRunsEachFireAsFourShardsThatTogetherReadEveryOrder(@Autowired OrderService orders) {
        for (int i = 0; i < 6; i++) {
            place("1" + i);
        }
        // the shards' parts add up to every order (demo orders may be placed meanwhile)
        long before = count(orders.totals());
        long inShards = 0;
        for (int shard = 0; shard < 4; shard++) {
            inShards += count(orders.totalsOfShard(shard, 4));
        }
        assertThat(inShards).isBetween(before, count(orders.totals())).isGreaterThanOrEqualTo(6);
        // each fire is four attempts, one per shard, each under the fire's key and its own
        await().atMost(TIMEOUT).until(() -> this.executions.findByJobName(OrderJobs.RECONCILE_ORDERS).stream()
                .filter((row) -> row.status() == ExecutionStatus.SUCCEEDED)
                .map(ExecutionRecord::scheduledAt)
                .collect(Collectors.groupingBy((fire) -> fire, Collectors.counting()))
                .containsValue(4L));
        assertThat(this.executions.findByJobName(OrderJobs.RECONCILE_ORDERS))
                .extracting(ExecutionRecord::idempotencyKey)
                .anyMatch((key) -> key.endsWith("#3/4"))
                .allMatch((key) -> key.matches(OrderJobs.RECONCILE_ORDERS + "@\\d+#[0-3]/4"));
    }

    private static long count(List<OrderTotals> totals) {
        return totals.stream().mapToLong(OrderTotals::count).sum();
    }

    @Test
    void aPaidOrderIsSettledAndItsTimeoutLeavesItAlone() {
        Order placed = place("42.5");
        assertThat(placed.status()).isEqualTo(OrderStatus.PENDING);
        assertThat(placed.amount()).isEqualByComparingTo(new BigDecimal("42.50"));

        Order paid = this.operator.post("/orders/" + placed.id() + "/pay", "").as(Order.class);
        assertThat(paid.status()).isEqualTo(OrderStatus.PAID);
        Order paidAgain =
                this.operator.post("/orders/" + placed.id() + "/pay", "").as(Order.class);
        assertThat(paidAgain.status()).isIn(OrderStatus.PAID, OrderStatus.SETTLED);

        Order settled = await().atMost(TIMEOUT)
                .until(() -> order(placed.id()), (order) -> order.status() == OrderStatus.SETTLED);
        assertThat(settled.amount()).isEqualByComparingTo(placed.amount());
        assertThat(settled.settledAt()).isAfterOrEqualTo(settled.createdAt());

        // the timeout still runs, and finds the order paid
        ExecutionRecord timeout = await().atMost(TIMEOUT)
                .until(() -> timeoutOf(placed), (job) -> job.status() == ExecutionStatus.SUCCEEDED);
        assertThat(timeout.origin()).isEqualTo(ExecutionOrigin.ONE_OFF);
        assertThat(order(placed.id()).status()).isEqualTo(OrderStatus.SETTLED);

        assertThat(this.executions.countByJobNameAndStatus(OrderJobs.SETTLE_PENDING_ORDERS, ExecutionStatus.SUCCEEDED))
                .isPositive();
        JsonNode page = this.viewer
                .get("/actuator/dsched/executions?job=" + OrderJobs.SETTLE_PENDING_ORDERS + "&size=200")
                .json();
        List<JsonNode> fires =
                StreamSupport.stream(page.get("content").spliterator(), false).toList();
        assertThat(fires)
                .isNotEmpty()
                .allSatisfy(
                        (fire) -> assertThat(fire.get("jobName").asString()).isEqualTo(OrderJobs.SETTLE_PENDING_ORDERS))
                .anySatisfy((fire) -> {
                    assertThat(fire.get("status").asString()).isEqualTo("SUCCEEDED");
                    assertThat(fire.get("nodeId").asString()).isEqualTo("test-node");
                    assertThat(instant(fire, "scheduledAt")).isAfterOrEqualTo(placed.createdAt());
                    assertThat(instant(fire, "finishedAt")).isAfterOrEqualTo(instant(fire, "startedAt"));
                });
        assertThat(fires)
                .extracting((fire) -> fire.get("idempotencyKey").asString())
                .doesNotHaveDuplicates();
    }

    @Test
    void anUnpaidOrderIsCancelledByItsOneOffTimeout() {
        Order placed = place("19.99");

        ExecutionRecord scheduled = timeoutOf(placed);
        assertThat(scheduled.jobName()).isEqualTo(OrderJobs.ORDER_TIMEOUT);
        assertThat(scheduled.origin()).isEqualTo(ExecutionOrigin.ONE_OFF);
        assertThat(scheduled.attempt()).isEqualTo(1);
        assertThat(scheduled.payload()).containsPattern("\"orderId\"\\s*:\\s*" + placed.id() + "\\b");
        assertThat(Duration.between(placed.createdAt(), scheduled.dueAt()))
                .isBetween(Duration.ofMillis(1500), Duration.ofSeconds(3));

        Order cancelled = await().atMost(TIMEOUT)
                .until(() -> order(placed.id()), (order) -> order.status() == OrderStatus.CANCELLED);
        assertThat(cancelled.settledAt()).isNull();
        ExecutionRecord ran = await().atMost(TIMEOUT)
                .until(() -> timeoutOf(placed), (job) -> job.status() == ExecutionStatus.SUCCEEDED);
        assertThat(ran.origin()).isEqualTo(ExecutionOrigin.ONE_OFF);
        assertThat(ran.startedAt()).isAfterOrEqualTo(scheduled.dueAt());
        assertThat(this.executions.findByIdempotencyKey(scheduled.idempotencyKey()))
                .hasSize(1);

        SampleClient.Response late = this.operator.post("/orders/" + placed.id() + "/pay", "");
        assertThat(late.status()).isEqualTo(409);
        assertThat(late.json().get("detail").asString()).contains("not paid in time");
        assertThat(order(placed.id()).status()).isEqualTo(OrderStatus.CANCELLED);
    }

    @Test
    void payingAnUnknownOrderIsNotFound() {
        SampleClient.Response response = this.operator.post("/orders/987654321/pay", "");
        assertThat(response.status()).isEqualTo(404);
        assertThat(response.json().get("detail").asString()).isEqualTo("No order 987654321");
    }

    @Test
    void placingAnOrderWithoutAPositiveAmountIsABadRequest() {
        SampleClient.Response response = this.operator.post("/orders", "{\"amount\":\"-1\"}");
        assertThat(response.status()).isEqualTo(400);
        assertThat(response.json().get("detail").asString()).contains("amount must be positive");
    }

    @Test
    void jobsArePausedAndResumedByTheOperatorAndRescheduledByTheAdminThroughTheEndpoint() {
        String job = "/actuator/dsched/jobs/" + OrderJobs.NIGHTLY_REPORT;
        assertThat(job(job).get("schedule").asString()).isEqualTo("cron(0 0 2 * * *, Europe/Berlin)");

        assertThat(this.operator.post(job + "/pause", "{}").status()).isEqualTo(200);
        assertThat(job(job).get("paused").asBoolean()).isTrue();
        assertThat(this.operator.post(job + "/resume", "{}").status()).isEqualTo(200);
        assertThat(job(job).get("paused").asBoolean()).isFalse();

        String schedule = "{\"cron\":\"0 30 3 * * *\",\"zone\":\"Europe/Berlin\",\"reason\":\"after the backup\"}";
        assertThat(this.operator.post(job + "/schedule", schedule).status()).isEqualTo(403);
        assertThat(this.admin.post(job + "/schedule", schedule).status()).isEqualTo(200);
        assertThat(job(job).get("schedule").asString()).isEqualTo("cron(0 30 3 * * *, Europe/Berlin)");
        assertThat(this.admin
                        .post(
                                job + "/schedule",
                                "{\"cron\":\"0 0 2 * * *\",\"zone\":\"Europe/Berlin\",\"reason\":\"back\"}")
                        .status())
                .isEqualTo(200);
    }

    @Test
    void aTriggeredJobRunsOnceNowAsAManualAttempt() {
        SampleClient.Response run =
                this.operator.post("/actuator/dsched/jobs/" + OrderJobs.NIGHTLY_REPORT + "/trigger", "{}");
        assertThat(run.status()).isEqualTo(200);
        long id = run.json().get("after").get("executionId").asLong();
        ExecutionRecord done = await().atMost(TIMEOUT)
                .until(
                        () -> this.executions.findById(id).orElseThrow(),
                        (attempt) -> attempt.status() == ExecutionStatus.SUCCEEDED);
        assertThat(done.origin()).isEqualTo(ExecutionOrigin.MANUAL);
        assertThat(done.jobName()).isEqualTo(OrderJobs.NIGHTLY_REPORT);
    }

    private Order place(String amount) {
        SampleClient.Response placed = this.operator.post("/orders", "{\"amount\":\"" + amount + "\"}");
        assertThat(placed.status()).as(placed.toString()).isEqualTo(201);
        return placed.as(Order.class);
    }

    private ExecutionRecord timeoutOf(Order order) {
        List<ExecutionRecord> attempts =
                this.executions.findByIdempotencyKey(OrderJobs.ORDER_TIMEOUT + ":order-" + order.id());
        assertThat(attempts).hasSize(1);
        return attempts.get(0);
    }

    private Order order(long id) {
        return this.viewer.get("/orders/" + id).as(Order.class);
    }

    private JsonNode job(String path) {
        return this.viewer.get(path).json().get("job");
    }

    private static Instant instant(JsonNode node, String field) {
        return Instant.parse(node.get(field).asString());
    }
}
