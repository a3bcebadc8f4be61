package io.dsched.sample;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dsched.execution.ExecutionStatus;
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
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.web.client.RestClient;

@SpringBootTest(
        webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = {"spring.datasource.url=jdbc:h2:mem:sample;DB_CLOSE_DELAY=-1", "dsched.node-id=test-node"})
class SampleApplicationTests {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);

    @LocalServerPort
    private int port;

    @Autowired
    private ExecutionRepository executions;

    private RestClient http;

    @BeforeEach
    void createClient() {
        this.http = RestClient.create("http://localhost:" + this.port);
    }

    @Test
    void settleJobSettlesPlacedOrdersAndRecordsItsFires() {
        Order placed = this.http
                .post()
                .uri("/orders")
                .contentType(MediaType.APPLICATION_JSON)
                .body(Map.of("amount", "42.5"))
                .retrieve()
                .body(Order.class);
        assertThat(placed.status()).isEqualTo(OrderStatus.PENDING);
        assertThat(placed.amount()).isEqualByComparingTo(new BigDecimal("42.50"));

        Order settled = await().atMost(TIMEOUT)
                .until(() -> order(placed.id()), (order) -> order.status() == OrderStatus.SETTLED);
        assertThat(settled.amount()).isEqualByComparingTo(placed.amount());
        assertThat(settled.settledAt()).isAfterOrEqualTo(settled.createdAt());

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
    void placingAnOrderWithoutAPositiveAmountIsABadRequest() {
        HttpStatusCode status = this.http
                .post()
                .uri("/orders")
                .contentType(MediaType.APPLICATION_JSON)
                .body(Map.of("amount", "-1"))
                .exchange((request, response) -> response.getStatusCode());
        assertThat(status).isEqualTo(HttpStatus.BAD_REQUEST);
    }

    private Order order(long id) {
        List<Order> orders =
                this.http.get().uri("/orders?limit=500").retrieve().body(new ParameterizedTypeReference<>() {});
        return orders.stream().filter((order) -> order.id() == id).findFirst().orElseThrow();
    }
}
