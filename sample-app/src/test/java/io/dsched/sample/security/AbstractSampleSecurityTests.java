package io.dsched.sample.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dsched.internal.store.ExecutionRepository;
import io.dsched.jobs.JobScheduler;
import io.dsched.sample.SampleClient;
import io.dsched.sample.SampleClient.Response;
import io.dsched.sample.SampleServer;
import io.dsched.sample.demo.DemoJobs;
import io.dsched.sample.order.OrderJobs;
import io.dsched.sample.order.OrderService;
import io.dsched.test.TestDatabases;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.jdbc.core.simple.JdbcClient;
import tools.jackson.databind.JsonNode;

/**
 * The sample's security over real HTTP, against the started sample on a real database: no spelling
 * of a path lets a signed-in session write without the CSRF token, the login and logout forms need
 * it too, nobody writes or reads without signing in, and the admin UI answers with its security
 * headers. Every refused request is checked to have changed nothing. Run against each database by a
 * small subclass.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractSampleSecurityTests {

    private static final String JOB = OrderJobs.NIGHTLY_REPORT;

    /** The amount of the orders that refused requests try to place; no demo order is this large. */
    private static final String REFUSED_AMOUNT = "4242.42";

    protected SampleServer server;

    private long pendingOrder;

    private long deadLetter;

    protected abstract TestDatabases.Kind kind();

    @BeforeAll
    void startServer() {
        this.server = SampleServer.start(kind(), Map.of("sample.payment-timeout", "10m"));
        Response placed = this.server.client("operator").post("/orders", "{\"amount\":\"4343.43\"}");
        assertThat(placed.status()).as(placed.toString()).isEqualTo(201);
        this.pendingOrder = placed.json().get("id").asLong();
        this.server.bean(JobScheduler.class).trigger(DemoJobs.LEDGER_EXPORT);
        this.deadLetter = await("a dead letter of " + DemoJobs.LEDGER_EXPORT)
                .atMost(Duration.ofSeconds(30))
                .until(
                        () -> this.server
                                .read("/dead-letters?status=open&job=" + DemoJobs.LEDGER_EXPORT)
                                .get("content"),
                        (letters) -> !letters.isEmpty())
                .get(0)
                .get("id")
                .asLong();
    }

    /** A write let through by mistake leaves the job paused: resume it, so that one failure stays one. */
    @AfterEach
    void resumeTheJob() {
        JobScheduler jobs = this.server.bean(JobScheduler.class);
        if (jobs.isPaused(JOB)) {
            jobs.resume(JOB);
        }
    }

    @AfterAll
    void stopServer() {
        if (this.server != null) {
            this.server.close();
        }
    }

    /**
     * Spellings of the endpoint's pause, and how the sample answers a signed-in session that sends
     * one without the CSRF token: 403 from the CSRF filter, which guards every path; 400 where Tomcat
     * (an encoded slash) or Spring Security's firewall (a path parameter, an empty or dot segment, an
     * encoded percent) refuses the path before anything reads it.
     */
    Stream<Arguments> spellingsOfPause() {
        return Stream.of(
                Arguments.of("/actuator/dsched/jobs/nightlyReport/pause", 403),
                Arguments.of("/%61ctuator/dsched/jobs/nightlyReport/pause", 403),
                Arguments.of("/%61ctuator/%64sched/jobs/%6eightlyReport/%70ause", 403),
                Arguments.of("/actuator/dsched/jobs/nightlyReport/%70ause", 403),
                Arguments.of("/%41CTUATOR/dsched/jobs/nightlyReport/pause", 403),
                Arguments.of("/ACTUATOR/DSCHED/JOBS/nightlyReport/PAUSE", 403),
                Arguments.of("/Actuator/Dsched/jobs/nightlyReport/pause", 403),
                Arguments.of("/actuator/dsched/jobs/nightlyReport/pause/", 403),
                Arguments.of("/actuator/dsched/jobs/nightlyReport/pause?reason=x", 403),
                Arguments.of("/actuator%2Fdsched/jobs/nightlyReport/pause", 400),
                Arguments.of("/actuator%2fdsched%2fjobs%2fnightlyReport%2fpause", 400),
                Arguments.of("/actuator;x=1/dsched/jobs/nightlyReport/pause", 400),
                Arguments.of("/actuator/dsched/jobs/nightlyReport/pause;jsessionid=x", 400),
                Arguments.of("//actuator//dsched/jobs/nightlyReport/pause", 400),
                Arguments.of("/actuator/./dsched/jobs/nightlyReport/pause", 400),
                Arguments.of("/x/../actuator/dsched/jobs/nightlyReport/pause", 400),
                Arguments.of("/%2561ctuator/dsched/jobs/nightlyReport/pause", 400));
    }

    @ParameterizedTest(name = "{0} answers {1}")
    @MethodSource("spellingsOfPause")
    void aSignedInSessionWithoutTheCsrfTokenPausesNoJobWhateverThePathsSpelling(String path, int status) {
        SampleClient operator = session("operator");
        Response refused = operator.post(path, "{}", false);
        assertThat(refused.status()).as(refused.toString()).isEqualTo(status);
        assertThat(refused.body()).doesNotContain("\"action\"").doesNotContain("needs the role");
        if (status == 403) {
            // says why, and what to send
            assertThat(refused.body()).contains("CSRF token").contains("X-XSRF-TOKEN");
        }
        assertThat(this.server.bean(JobScheduler.class).isPaused(JOB)).isFalse();
        assertThat(this.server.read("/jobs/" + JOB).get("job").get("paused").asBoolean())
                .isFalse();
    }

    @Test
    void aScriptThatSendsNoCsrfTokenIsToldWhyItsWriteIsRefused() {
        Response refused = this.server.client("operator").post("/actuator/dsched/jobs/" + JOB + "/pause", "{}", false);
        assertThat(refused.status()).as(refused.toString()).isEqualTo(403);
        assertThat(refused.json().get("message").asString())
                .contains("XSRF-TOKEN cookie")
                .contains("X-XSRF-TOKEN header");
        assertThat(this.server.bean(JobScheduler.class).isPaused(JOB)).isFalse();
    }

    @Test
    void theSameSessionWithTheTokenMayPauseAndResume() {
        SampleClient operator = session("operator");
        assertThat(operator.post("/actuator/dsched/jobs/" + JOB + "/pause", "{}")
                        .status())
                .isEqualTo(200);
        assertThat(this.server.bean(JobScheduler.class).isPaused(JOB)).isTrue();
        assertThat(operator.post("/actuator/dsched/jobs/" + JOB + "/resume", "{}")
                        .status())
                .isEqualTo(200);
        assertThat(this.server.bean(JobScheduler.class).isPaused(JOB)).isFalse();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("spellingsOfLogin")
    void theLoginFormWithoutTheTokenSignsNobodyIn(String path) {
        SampleClient client = SampleClient.anonymous(this.server.base());
        Response refused =
                client.form(path, Map.of("username", "operator", "password", this.server.password("operator")), false);
        assertThat(refused.status()).as(refused.toString()).isEqualTo(403);
        assertThat(client.get("/actuator/dsched/me").status()).isEqualTo(401);
    }

    Stream<String> spellingsOfLogin() {
        return Stream.of("/login", "/%6cogin", "/%6C%6F%67%69%6E", "/LOGIN");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("spellingsOfLogout")
    void theLogoutFormWithoutTheTokenSignsNobodyOut(String path) {
        SampleClient operator = session("operator");
        Response refused = operator.form(path, Map.of(), false);
        assertThat(refused.status()).as(refused.toString()).isEqualTo(403);
        Response me = operator.get("/actuator/dsched/me");
        assertThat(me.status()).isEqualTo(200);
        assertThat(me.json().get("name").asString()).isEqualTo("operator");

        assertThat(operator.form("/logout", Map.of(), true).status()).isIn(204, 302);
        assertThat(operator.get("/actuator/dsched/me").status()).isEqualTo(401);
    }

    Stream<String> spellingsOfLogout() {
        return Stream.of("/logout", "/%6cogout", "/LOGOUT");
    }

    /** Every write of the sample, with a body that would do something if it were let through. */
    Stream<Arguments> writes() {
        return Stream.of(
                Arguments.of("/orders", "{\"amount\":\"" + REFUSED_AMOUNT + "\"}"),
                Arguments.of("/%6frders", "{\"amount\":\"" + REFUSED_AMOUNT + "\"}"),
                Arguments.of("/orders/{pending}/pay", ""),
                Arguments.of("/actuator/dsched/jobs/nightlyReport/pause", "{}"),
                Arguments.of("/%61ctuator/dsched/jobs/nightlyReport/pause", "{}"),
                Arguments.of("/actuator/dsched/jobs/nightlyReport/trigger", "{}"),
                Arguments.of("/actuator/dsched/jobs/nightlyReport/schedule", "{\"cron\":\"0 0 3 * * *\"}"),
                Arguments.of("/actuator/dsched/jobs/untrustedTextDemo/params", "{\"params\":\"{}\"}"),
                Arguments.of("/actuator/dsched/dead-letters/{letter}/replay", "{}"),
                Arguments.of("/actuator/dsched/dead-letters/{letter}/discard", "{\"reason\":\"x\"}"),
                Arguments.of("/actuator/dsched/dead-letters/discard", "{\"ids\":\"{letter}\",\"reason\":\"x\"}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("writes")
    void nobodyWritesWithoutSigningInAndNothingChanges(String path, String body) {
        String resolved = resolve(path);
        String content = resolve(body);
        State before = state();
        SampleClient anonymous = SampleClient.anonymous(this.server.base());

        Response withoutToken = anonymous.post(resolved, content, false);
        assertThat(withoutToken.status()).as(withoutToken.toString()).isEqualTo(403);
        // a script of nobody's may read the token from its cookie; it still has no user
        Response withToken = anonymous.post(resolved, content, true);
        assertThat(withToken.status()).as(withToken.toString()).isEqualTo(401);

        assertThat(state()).isEqualTo(before);
    }

    @Test
    void theViewerReadsOrdersButNeitherPlacesNorPaysThemNorOperatesJobs() {
        SampleClient viewer = this.server.client("viewer");
        State before = state();
        assertThat(viewer.get("/orders/" + this.pendingOrder).status()).isEqualTo(200);
        assertThat(viewer.get("/orders?limit=5").status()).isEqualTo(200);
        assertThat(viewer.post("/orders", "{\"amount\":\"" + REFUSED_AMOUNT + "\"}")
                        .status())
                .isEqualTo(403);
        assertThat(viewer.post("/orders/" + this.pendingOrder + "/pay", "").status())
                .isEqualTo(403);
        assertThat(viewer.post("/actuator/dsched/jobs/" + JOB + "/pause", "{}").body())
                .contains("DSCHED_OPERATOR");
        assertThat(state()).isEqualTo(before);
    }

    @Test
    void nobodyReadsWithoutSigningInAndTheDemoApiIsGone() {
        SampleClient anonymous = SampleClient.anonymous(this.server.base());
        SampleClient viewer = this.server.client("viewer");
        for (String path : new String[] {
            "/orders",
            "/orders/" + this.pendingOrder,
            "/actuator",
            "/actuator/info",
            "/actuator/dsched",
            "/actuator/dsched/executions?job=" + OrderJobs.ORDER_TIMEOUT,
            "/actuator/dsched/dead-letters/" + this.deadLetter,
            "/%61ctuator/dsched/executions?job=" + OrderJobs.ORDER_TIMEOUT,
            "/executions?job=" + OrderJobs.ORDER_TIMEOUT,
            "/jobs/" + JOB
        }) {
            Response refused = anonymous.get(path);
            assertThat(refused.status()).as(refused.toString()).isEqualTo(401);
            assertThat(refused.body()).doesNotContain(OrderJobs.ORDER_TIMEOUT + ":order-");
        }
        assertThat(anonymous.get("/actuator/dsched-ui/").status()).isEqualTo(401);
        assertThat(viewer.get("/executions?job=" + OrderJobs.ORDER_TIMEOUT).status())
                .isEqualTo(404);
        assertThat(viewer.get("/jobs/" + JOB).status()).isEqualTo(404);
        assertThat(viewer.post("/jobs/" + JOB + "/pause", "").status()).isEqualTo(404);
        assertThat(anonymous.get("/actuator/health/readiness").status()).isEqualTo(200);
        assertThat(anonymous.get("/actuator/prometheus").status()).isEqualTo(200);
    }

    @Test
    void anAmountWithAHugeExponentIsRefusedBeforeItIsRoundedAndPlacesNoOrder() {
        SampleClient operator = this.server.client("operator");
        // the same path once, so that the measured request does not pay for the first one's warm-up
        assertThat(operator.post("/orders", "{\"amount\":0}").status()).isEqualTo(400);
        for (String amount : new String[] {"1e-30000000", "\"1e-30000000\"", "1E-2147483647"}) {
            long started = System.nanoTime();
            Response refused = operator.post("/orders", "{\"amount\":" + amount + "}");
            Duration elapsed = Duration.ofNanos(System.nanoTime() - started);
            assertThat(refused.status()).as(refused.toString()).isEqualTo(400);
            assertThat(refused.json().get("detail").asString()).isEqualTo("amount must have at most 2 decimal places");
            // rounding 1e-30000000 took 12 to 28 s of CPU; refused before, it is answered in
            // milliseconds, and 5 s leaves room for a machine busy with other suites
            assertThat(elapsed).as("answer to %s", amount).isLessThan(Duration.ofSeconds(5));
        }
        // rounded, it would have been an order of nothing
        assertThat(ordersOf("0.00")).isZero();
    }

    /** Amounts out of bounds, what they would have been rounded to, and why they are refused. */
    Stream<Arguments> amountsOutOfBounds() {
        return Stream.of(
                Arguments.of("4242.001", "4242.00", "amount must have at most 2 decimal places"),
                Arguments.of("\"4242.005\"", "4242.01", "amount must have at most 2 decimal places"),
                Arguments.of("0", "0.00", "amount must be positive"),
                Arguments.of("-4242", "-4242.00", "amount must be positive"),
                Arguments.of("1e9", "1000000000.00", "amount must be at most 1000000.00"),
                Arguments.of("1000000.01", "1000000.01", "amount must be at most 1000000.00"),
                Arguments.of("1E+30000000", null, "amount must be at most 1000000.00"),
                Arguments.of("null", null, "amount is required"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("amountsOutOfBounds")
    void anAmountOutOfBoundsIsABadRequestWithTheReasonAndPlacesNoOrder(String amount, String rounded, String reason) {
        Response refused = this.server.client("operator").post("/orders", "{\"amount\":" + amount + "}");
        assertThat(refused.status()).as(refused.toString()).isEqualTo(400);
        assertThat(refused.json().get("detail").asString()).isEqualTo(reason);
        if (rounded != null) {
            assertThat(ordersOf(rounded)).isZero();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("amountsInBounds")
    void anAmountInBoundsPlacesAnOrderOfThatAmount(String amount, String placed) {
        Response created = this.server.client("operator").post("/orders", "{\"amount\":" + amount + "}");
        assertThat(created.status()).as(created.toString()).isEqualTo(201);
        assertThat(created.json().get("amount").decimalValue()).isEqualByComparingTo(placed);
        assertThat(ordersOf(placed)).isPositive();
    }

    Stream<Arguments> amountsInBounds() {
        return Stream.of(
                Arguments.of("12.50", "12.50"),
                Arguments.of("\"12.5\"", "12.50"),
                Arguments.of("0.01", "0.01"),
                Arguments.of("1E+6", "1000000.00"),
                Arguments.of("1000000.00", "1000000.00"));
    }

    @Test
    void theLimitOfTheOrdersListIsBounded() {
        SampleClient viewer = this.server.client("viewer");
        for (String limit : new String[] {"0", "-1", "501", "99999999999", "1e3", "x"}) {
            Response refused = viewer.get("/orders?limit=" + limit);
            assertThat(refused.status()).as(refused.toString()).isEqualTo(400);
        }
        assertThat(viewer.get("/orders?limit=1").status()).isEqualTo(200);
        assertThat(viewer.get("/orders?limit=500").status()).isEqualTo(200);
    }

    @Test
    void nobodySeesWhetherTheNodeIsUpAndReadyButOnlyTheSamplesUsersSeeTheDetails() {
        SampleClient anonymous = SampleClient.anonymous(this.server.base());
        for (String path :
                new String[] {"/actuator/health", "/actuator/health/readiness", "/actuator/health/liveness"}) {
            Response health = anonymous.get(path);
            assertThat(health.status()).as(health.toString()).isEqualTo(200);
            assertThat(health.json().get("status").asString()).isEqualTo("UP");
            assertThat(health.json().has("components")).as(health.toString()).isFalse();
            assertThat(health.json().has("details")).as(health.toString()).isFalse();
            assertThat(health.body()).doesNotContain("ui-node-1").doesNotContain("diskSpace");
        }
        for (String path :
                new String[] {"/actuator/health/dsched", "/actuator/health/diskSpace", "/actuator/health/db"}) {
            Response health = anonymous.get(path);
            assertThat(health.body()).as(health.toString()).doesNotContain("details");
        }

        for (String user : new String[] {"viewer", "operator", "admin"}) {
            JsonNode health = this.server.client(user).get("/actuator/health").json();
            assertThat(health.get("components")
                            .get("dsched")
                            .get("details")
                            .get("node")
                            .asString())
                    .isEqualTo("ui-node-1");
            assertThat(health.get("components").get("diskSpace").get("details").has("path"))
                    .isTrue();
        }
        JsonNode readiness = session("viewer").get("/actuator/health/readiness").json();
        assertThat(readiness
                        .get("components")
                        .get("dsched")
                        .get("details")
                        .get("node")
                        .asString())
                .isEqualTo("ui-node-1");
    }

    @Test
    void theAdminUiAnswersWithItsSecurityHeaders() {
        Response index = session("viewer").get("/actuator/dsched-ui/");
        assertThat(index.status()).isEqualTo(200);
        assertThat(index.header("Content-Security-Policy"))
                .contains("default-src 'self'")
                .contains("script-src 'self'")
                .contains("form-action 'self'")
                .contains("frame-ancestors 'none'")
                .doesNotContain("unsafe-inline");
        assertThat(index.header("Permissions-Policy").split(", "))
                .contains("camera=()", "microphone=()", "geolocation=()", "payment=()", "usb=()");
        assertThat(index.header("Cross-Origin-Opener-Policy")).isEqualTo("same-origin");
        assertThat(index.header("X-Content-Type-Options")).isEqualTo("nosniff");
        assertThat(index.header("X-Frame-Options")).isEqualTo("DENY");
    }

    private long ordersOf(String amount) {
        return this.server
                .bean(JdbcClient.class)
                .sql("SELECT COUNT(*) FROM sample_order WHERE amount = :amount")
                .param("amount", new BigDecimal(amount))
                .query(Long.class)
                .single();
    }

    private SampleClient session(String user) {
        return SampleClient.session(this.server.base(), user, this.server.password(user));
    }

    private String resolve(String template) {
        return template.replace("{pending}", Long.toString(this.pendingOrder))
                .replace("{letter}", Long.toString(this.deadLetter));
    }

    private State state() {
        JobScheduler jobs = this.server.bean(JobScheduler.class);
        return new State(
                ordersOf(REFUSED_AMOUNT),
                this.server
                        .bean(OrderService.class)
                        .find(this.pendingOrder)
                        .orElseThrow()
                        .status()
                        .name(),
                jobs.isPaused(JOB),
                jobs.scheduleOf(JOB),
                this.server.bean(ExecutionRepository.class).findByJobName(JOB).size(),
                this.server
                        .read("/jobs/" + DemoJobs.UNTRUSTED_TEXT_DEMO)
                        .get("job")
                        .get("params")
                        .asString(),
                this.server
                        .read("/dead-letters/" + this.deadLetter)
                        .get("status")
                        .asString());
    }

    /**
     * What a refused write could have changed.
     *
     * @param refusedOrders orders of the amount that refused requests try to place
     * @param pendingOrder the state of an order awaiting payment
     * @param paused whether the nightly report is paused
     * @param schedule its schedule
     * @param runs its attempts
     * @param params the untrusted-text demo's parameters
     * @param deadLetter the state of a dead letter
     */
    record State(
            long refusedOrders,
            String pendingOrder,
            boolean paused,
            String schedule,
            int runs,
            String params,
            String deadLetter) {}
}
