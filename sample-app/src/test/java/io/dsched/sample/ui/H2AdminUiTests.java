package io.dsched.sample.ui;

import static org.assertj.core.api.Assertions.assertThat;

import io.dsched.jobs.JobScheduler;
import io.dsched.jobs.OneOff;
import io.dsched.sample.order.OrderJobs;
import io.dsched.sample.order.OrderTimeout;
import io.dsched.test.TestDatabases;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;

/**
 * The admin UI on the sample application's H2, beside the core flows every database runs: what
 * each role is offered and refused, CSRF, and the keyboard.
 */
class H2AdminUiTests extends AbstractAdminUiTests {
    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.H2;
    }

    @Override
    protected String prefix() {
        return "";
    }

    @Test
    void aViewerSeesNoWriteControlsAndAForgedWriteIsRefused() throws Exception {
        signIn("viewer");
        this.browser.page("/jobs", "Jobs");
        assertThat(this.browser.text("main table")).contains(OrderJobs.SETTLE_PENDING_ORDERS);
        assertThat(this.browser.all("main button[data-action]")).isEmpty();
        this.browser.page("/jobs/" + OrderJobs.NIGHTLY_REPORT, OrderJobs.NIGHTLY_REPORT);
        assertThat(this.browser.all("main button[data-action]")).isEmpty();
        assertThat(this.browser.all("#cron")).isEmpty();
        this.browser.page("/dead-letters", "Dead letters");
        assertThat(this.browser.all("main input[type=checkbox]")).isEmpty();
        assertThat(this.browser.all("main button[data-action]")).isEmpty();
        long waiting = this.server
                .bean(JobScheduler.class)
                .submit(OneOff.of(OrderJobs.ORDER_TIMEOUT, new OrderTimeout(434_343L))
                        .after(Duration.ofHours(1)))
                .executionId();
        this.browser.page("/executions/" + waiting, "Execution #" + waiting);
        assertThat(this.browser.all("main button[data-action]")).isEmpty();
        this.browser.screenshot("viewer-jobs");

        String refused = this.browser.forge("/jobs/" + OrderJobs.NIGHTLY_REPORT + "/pause", Map.of());
        assertThat(refused).startsWith("403 ").contains("DSCHED_OPERATOR");
        this.browser.assertNoConsoleErrors("/jobs/" + OrderJobs.NIGHTLY_REPORT + "/pause");
        String cancelRefused = this.browser.forge("/executions/" + waiting + "/cancel", Map.of());
        assertThat(cancelRefused).startsWith("403 ").contains("DSCHED_OPERATOR");
        this.browser.assertNoConsoleErrors(
                "/jobs/" + OrderJobs.NIGHTLY_REPORT + "/pause", "/executions/" + waiting + "/cancel");
        assertThat(this.server
                        .read("/executions/" + waiting)
                        .get("execution")
                        .get("status")
                        .asString())
                .isEqualTo("SCHEDULED");
        assertThat(this.server
                        .read("/jobs/" + OrderJobs.NIGHTLY_REPORT)
                        .get("job")
                        .get("paused")
                        .asBoolean())
                .isFalse();
        this.browser.assertNoConsoleErrors();
    }

    @Test
    void anOperatorMayPauseButIsNotOfferedTheScheduleEditorAndCannotChangeASchedule() throws Exception {
        signIn("operator");
        this.browser.page("/jobs/" + OrderJobs.NIGHTLY_REPORT, OrderJobs.NIGHTLY_REPORT);
        assertThat(this.browser.all("main button[data-action=pause]")).hasSize(1);
        assertThat(this.browser.all("#cron")).isEmpty();
        assertThat(this.browser.all("#params")).isEmpty();
        String refused = this.browser.forge(
                "/jobs/" + OrderJobs.NIGHTLY_REPORT + "/schedule", Map.of("cron", "0 0 3 * * *", "zone", "UTC"));
        assertThat(refused).startsWith("403 ").contains("DSCHED_ADMIN");
        this.browser.assertNoConsoleErrors("/jobs/" + OrderJobs.NIGHTLY_REPORT + "/schedule");
        assertThat(this.server
                        .read("/jobs/" + OrderJobs.NIGHTLY_REPORT)
                        .get("job")
                        .get("cron")
                        .asString())
                .isEqualTo("0 0 2 * * *");
        this.browser.screenshot("operator-job");
        this.browser.assertNoConsoleErrors();
    }

    @Test
    void aWriteWithoutTheCsrfTokenIsRefusedAndChangesNothing() throws Exception {
        String job = OrderJobs.NIGHTLY_REPORT;
        signIn("operator");
        this.browser.page("/jobs", "Jobs");
        assertThat(this.browser.forge("/jobs/" + job + "/pause", Map.of(), false))
                .startsWith("403 ");
        assertThat(this.server.read("/jobs/" + job).get("job").get("paused").asBoolean())
                .isFalse();
        // the token is all it lacked: with it, the same session may pause
        assertThat(this.browser.forge("/jobs/" + job + "/pause", Map.of(), true))
                .startsWith("200 ");
        assertThat(this.server.read("/jobs/" + job).get("job").get("paused").asBoolean())
                .isTrue();
        assertThat(this.browser.forge("/jobs/" + job + "/resume", Map.of(), true))
                .startsWith("200 ");
        this.browser.assertNoConsoleErrors("/jobs/" + job + "/pause");
    }

    @Test
    void theKeyboardReachesTheContentThePagesAndTheirControls() throws Exception {
        signIn("viewer");
        this.browser.page("/", "Overview");
        this.browser.keys(Keys.TAB);
        assertThat(this.browser.focused()).isEqualTo("a #main Skip to content");
        this.browser.keys(Keys.ENTER);
        assertThat(this.browser.focused()).startsWith("main#main ");
        this.browser.heading("Overview");

        this.browser.reload("Overview");
        this.browser.keys(Keys.TAB);
        this.browser.keys(Keys.TAB);
        this.browser.keys(Keys.TAB);
        assertThat(this.browser.focused()).isEqualTo("a #/jobs Jobs");
        this.browser.keys(Keys.ENTER);
        this.browser.heading("Jobs");
        this.browser.waitFor((d) -> this.browser.focused().startsWith("main#main "));
        this.browser.keys(Keys.TAB);
        assertThat(this.browser.focused()).isEqualTo("input#job-search");
        this.browser.keys("nightly");
        this.browser.waitFor(
                (d) -> d.findElements(By.cssSelector("tr[data-job]")).size() == 1);
        assertThat(this.browser.text("tr[data-job]")).contains(OrderJobs.NIGHTLY_REPORT);
        this.browser.screenshot("keyboard-jobs");
        this.browser.assertNoConsoleErrors();
    }
}
