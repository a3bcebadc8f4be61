package io.dsched.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dsched.execution.ExecutionOrigin;
import io.dsched.execution.ExecutionStatus;
import io.dsched.sample.jobs.JobView;
import io.dsched.sample.order.Order;
import io.dsched.sample.order.OrderJobs;
import io.dsched.sample.order.OrderStatus;
import io.dsched.store.ExecutionRecord;
import io.dsched.store.ExecutionRepository;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.core.ParameterizedTypeReference;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;

@SpringBootTest(
        webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = {
            "spring.datasource.url=jdbc:h2:mem:sample;DB_CLOSE_DELAY=-1",
            "dsched.node-id=test-node",
            "sample.payment-timeout=2s"
        })
class SampleApplicationTests {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @LocalServerPort
    private int port;

    @Autowired
    private ExecutionRepository executions;

    private RestClient http;

    @BeforeEach
    void createClient() {
        this.http = RestClient.builder()
                .baseUrl("http://localhost:" + this.port)
                .defaultStatusHandler((status) -> true, (request, response) -> {})
                .build();
    }

    @Test
    void aPaidOrderIsSettledAndItsTimeoutLeavesItAlone() {
        Order placed = place("42.5");
        assertThat(placed.status()).isEqualTo(OrderStatus.PENDING);
        assertThat(placed.amount()).isEqualByComparingTo(new BigDecimal("42.50"));

        Order paid =
                this.http.post().uri("/orders/{id}/pay", placed.id()).retrieve().body(Order.class);
        assertThat(paid.status()).isEqualTo(OrderStatus.PAID);
        Order paidAgain =
                this.http.post().uri("/orders/{id}/pay", placed.id()).retrieve().body(Order.class);
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
        List<ExecutionRecord> fires = this.http
                .get()
                .uri("/executions?job={job}&limit=500", OrderJobs.SETTLE_PENDING_ORDERS)
                .retrieve()
                .body(new ParameterizedTypeReference<>() {});
        assertThat(fires)
                .isNotEmpty()
                .allSatisfy((fire) -> assertThat(fire.jobName()).isEqualTo(OrderJobs.SETTLE_PENDING_ORDERS))
                .anySatisfy((fire) -> {
                    assertThat(fire.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
                    assertThat(fire.nodeId()).isEqualTo("test-node");
                    assertThat(fire.scheduledAt()).isAfterOrEqualTo(placed.createdAt());
                    assertThat(fire.finishedAt()).isAfterOrEqualTo(fire.startedAt());
                });
        assertThat(fires).extracting(ExecutionRecord::idempotencyKey).doesNotHaveDuplicates();
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

        ResponseEntity<ProblemDetail> late =
                this.http.post().uri("/orders/{id}/pay", placed.id()).retrieve().toEntity(ProblemDetail.class);
        assertThat(late.getStatusCode()).isEqualTo(HttpStatus.CONFLICT);
        assertThat(late.getBody().getDetail()).contains("not paid in time");
        assertThat(order(placed.id()).status()).isEqualTo(OrderStatus.CANCELLED);
    }

    @Test
    void payingAnUnknownOrderIsNotFound() {
        ResponseEntity<ProblemDetail> response =
                this.http.post().uri("/orders/{id}/pay", 987654321L).retrieve().toEntity(ProblemDetail.class);
        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.NOT_FOUND);
        assertThat(response.getBody().getDetail()).isEqualTo("No order 987654321");
    }

    @Test
    void placingAnOrderWithoutAPositiveAmountIsABadRequest() {
        ResponseEntity<ProblemDetail> response = this.http
                .post()
                .uri("/orders")
                .contentType(MediaType.APPLICATION_JSON)
                .body(Map.of("amount", "-1"))
                .retrieve()
                .toEntity(ProblemDetail.class);
        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(response.getBody().getDetail()).contains("amount must be positive");
    }

    @Test
    void jobsArePausedResumedAndRescheduledThroughTheirApi() {
        String job = "/jobs/" + OrderJobs.NIGHTLY_REPORT;
        assertThat(this.http.get().uri(job).retrieve().body(JobView.class))
                .isEqualTo(new JobView(OrderJobs.NIGHTLY_REPORT, false, "cron(0 0 2 * * *, Europe/Berlin)"));

        assertThat(this.http
                        .post()
                        .uri(job + "/pause")
                        .retrieve()
                        .body(JobView.class)
                        .paused())
                .isTrue();
        assertThat(this.http.get().uri(job).retrieve().body(JobView.class).paused())
                .isTrue();
        assertThat(this.http
                        .post()
                        .uri(job + "/resume")
                        .retrieve()
                        .body(JobView.class)
                        .paused())
                .isFalse();

        JobView rescheduled = this.http
                .put()
                .uri(job + "/schedule")
                .contentType(MediaType.APPLICATION_JSON)
                .body(Map.of("cron", "0 30 3 * * *"))
                .retrieve()
                .body(JobView.class);
        assertThat(rescheduled.schedule()).isEqualTo("cron(0 30 3 * * *, default zone)");
        assertThat(this.http.get().uri(job).retrieve().body(JobView.class).schedule())
                .isEqualTo("cron(0 30 3 * * *, default zone)");
    }

    @Test
    void aTriggeredJobRunsOnceNowAsAManualAttempt() {
        Map<String, Object> run = this.http
                .post()
                .uri("/jobs/{job}/trigger", OrderJobs.NIGHTLY_REPORT)
                .retrieve()
                .body(new ParameterizedTypeReference<>() {});
        long id = ((Number) run.get("executionId")).longValue();
        ExecutionRecord done = await().atMost(TIMEOUT)
                .until(
                        () -> this.executions.findById(id).orElseThrow(),
                        (attempt) -> attempt.status() == ExecutionStatus.SUCCEEDED);
        assertThat(done.origin()).isEqualTo(ExecutionOrigin.MANUAL);
        assertThat(done.jobName()).isEqualTo(OrderJobs.NIGHTLY_REPORT);
    }

    @Test
    void unknownJobsAreNotFoundAndInvalidSchedulesAreBadRequests() {
        ResponseEntity<ProblemDetail> unknown =
                this.http.get().uri("/jobs/noSuchJob").retrieve().toEntity(ProblemDetail.class);
        assertThat(unknown.getStatusCode()).isEqualTo(HttpStatus.NOT_FOUND);
        assertThat(unknown.getBody().getDetail()).contains("noSuchJob");

        ResponseEntity<ProblemDetail> unknownTrigger =
                this.http.post().uri("/jobs/noSuchJob/trigger").retrieve().toEntity(ProblemDetail.class);
        assertThat(unknownTrigger.getStatusCode()).isEqualTo(HttpStatus.NOT_FOUND);

        ResponseEntity<String> invalid = this.http
                .put()
                .uri("/jobs/{job}/schedule", OrderJobs.FLAKY_PARTNER_SYNC)
                .contentType(MediaType.APPLICATION_JSON)
                .body(Map.of("cron", "0 61 * * * *"))
                .retrieve()
                .toEntity(String.class);
        assertThat(invalid.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(invalid.getBody())
                .contains("Invalid cron expression '0 61 * * * *'")
                .doesNotContain("\tat ");

        ResponseEntity<ProblemDetail> missing = this.http
                .put()
                .uri("/jobs/{job}/schedule", OrderJobs.FLAKY_PARTNER_SYNC)
                .contentType(MediaType.APPLICATION_JSON)
                .body(Map.of())
                .retrieve()
                .toEntity(ProblemDetail.class);
        assertThat(missing.getStatusCode()).isEqualTo(HttpStatus.BAD_REQUEST);
        assertThat(this.http
                        .get()
                        .uri("/jobs/{job}", OrderJobs.FLAKY_PARTNER_SYNC)
                        .retrieve()
                        .body(JobView.class)
                        .schedule())
                .isEqualTo("fixedRate(PT10S, initialDelay PT0S)");
    }

    private Order place(String amount) {
        return this.http
                .post()
                .uri("/orders")
                .contentType(MediaType.APPLICATION_JSON)
                .body(Map.of("amount", amount))
                .retrieve()
                .body(Order.class);
    }

    private ExecutionRecord timeoutOf(Order order) {
        List<ExecutionRecord> attempts =
                this.executions.findByIdempotencyKey(OrderJobs.ORDER_TIMEOUT + ":order-" + order.id());
        assertThat(attempts).hasSize(1);
        return attempts.get(0);
    }

    private Order order(long id) {
        return this.http.get().uri("/orders/{id}", id).retrieve().body(Order.class);
    }
}
