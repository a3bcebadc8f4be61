package io.dsched.sample.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dsched.sample.demo.DemoJobs;
import io.dsched.sample.order.OrderJobs;
import io.dsched.test.TestDatabases;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import java.util.stream.StreamSupport;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;
import org.springframework.jdbc.core.JdbcTemplate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The admin UI on the sample application's H2: what an operator types and reads, the schedule and
 * parameters editors, the filters, bulk actions on dead letters, untrusted text and zones.
 */
class H2AdminUiInputTests extends AdminUiSession {
    /** The untrusted note as the parameters' JSON shows it, its quotes escaped. */
    private static final String UNTRUSTED_IN_JSON =
            "<script>window.dschedXss = 'script'</script><img src=x onerror=\\\"window.dschedXss = 'img'\\\">";

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.H2;
    }

    @Override
    protected String prefix() {
        return "";
    }

    @Test
    void theJobFiltersTheStateFilterAndTheParametersEditorDoWhatTheySay() throws Exception {
        signIn("admin");
        this.browser.page("/jobs", "Jobs");
        new Select(this.browser.find("#job-filter")).selectByValue("runtime");
        this.browser.waitFor(
                (d) -> d.findElements(By.cssSelector("tr[data-job]")).size() == 1);
        assertThat(this.browser.find("tr[data-job]").getAttribute("data-job")).isEqualTo(DemoJobs.UNTRUSTED_TEXT_DEMO);
        new Select(this.browser.find("#job-filter")).selectByValue("active");
        this.browser.waitFor(
                (d) -> d.findElements(By.cssSelector("tr[data-job]")).size() > 3);
        assertThat(this.browser.all("td[data-state]"))
                .allSatisfy(
                        (state) -> assertThat(state.getAttribute("data-state")).isEqualTo("active"));

        String settle = OrderJobs.SETTLE_PENDING_ORDERS;
        this.browser.page("/jobs/" + settle, settle);
        this.browser.leave();
        new Select(this.browser.find("#status-filter")).selectByValue("SUCCEEDED");
        this.browser.heading(settle);
        assertThat(this.browser.url()).endsWith("?status=SUCCEEDED");
        List<WebElement> states = this.browser.all("section[aria-labelledby=runs-h] tbody td:nth-child(2)");
        assertThat(states).isNotEmpty().allSatisfy((state) -> assertThat(state.getText())
                .isEqualTo("SUCCEEDED"));

        String job = DemoJobs.UNTRUSTED_TEXT_DEMO;
        this.browser.page("/jobs/" + job, job);
        WebElement params = this.browser.find("#params");
        WebElement save = this.browser.find("section[aria-labelledby=params-h] button[type=submit]");
        params.clear();
        params.sendKeys("{\"note\": ");
        this.browser.waitFor((d) -> this.browser.text("#params-check").startsWith("Not valid JSON"));
        assertThat(save.isEnabled()).isFalse();
        params.sendKeys("\"edited in the UI\"}");
        this.browser.waitFor((d) -> this.browser.text("#params-check").equals("Valid JSON."));
        this.browser.find("#params-reason").sendKeys("a plainer note");
        save.click();
        await().atMost(Duration.ofSeconds(10)).until(() -> this.server
                .read("/jobs/" + job, "operator")
                .get("job")
                .get("params")
                .asString()
                .contains("edited in the UI"));
        this.browser.page("/audit", "Audit");
        assertThat(this.browser.text("main table")).contains("job.params").contains("a plainer note");
        // the other tests share the application: give the job its note back
        String note = JsonMapper.builder().build().writeValueAsString(new DemoJobs.Note(DemoJobs.UNTRUSTED_NOTE));
        assertThat(this.browser.forge("/jobs/" + job + "/params", Map.of("params", note)))
                .startsWith("200 ");
        this.browser.assertNoConsoleErrors();
    }

    @Test
    void aJobWithALongHistoryIsCountedOnlySoFarBeyondThePageAndThePagerSaysSo() throws Exception {
        // more of the nightly report's attempts than a list counts past its page
        JdbcTemplate sql = new JdbcTemplate(this.server.bean(DataSource.class));
        String job = OrderJobs.NIGHTLY_REPORT;
        Timestamp ran = Timestamp.from(Instant.now().minus(Duration.ofDays(2)));
        List<Object[]> rows = IntStream.range(0, 10_030)
                .mapToObj((i) -> new Object[] {job, ran, job + "@history-" + i, ran, ran})
                .toList();
        sql.batchUpdate(
                "INSERT INTO dsched_execution (job_name, scheduled_at, attempt, idempotency_key, status, node_id,"
                        + " started_at, finished_at, origin) VALUES (?, ?, 1, ?, 'SUCCEEDED', 'ui-history', ?, ?,"
                        + " 'SCHEDULE')",
                rows);
        try {
            JsonNode first = this.server.read("/executions?job=" + job + "&size=20");
            assertThat(first.get("total").asLong()).isEqualTo(10_000);
            assertThat(first.get("totalExact").asBoolean()).isFalse();
            // near the end, the count is exact again: whatever the job ran besides, it ran fewer
            // than 10,000 times in this test class
            JsonNode nearTheEnd = this.server.read("/executions?job=" + job + "&size=20&page=501");
            long others = sql.queryForObject(
                    "SELECT COUNT(*) FROM dsched_execution WHERE job_name = ? AND node_id <> 'ui-history'",
                    Long.class,
                    job);
            assertThat(nearTheEnd.get("total").asLong()).isEqualTo(10_030 + others);
            assertThat(nearTheEnd.get("totalExact").asBoolean()).isTrue();

            signIn("viewer");
            this.browser.page("/jobs/" + job, job);
            assertThat(this.browser.text("nav.pager span")).isEqualTo("Page 1 of 500+ (10000+)");
            this.browser.find("nav.pager button:last-of-type").click();
            this.browser.waitFor((d) -> this.browser.text("nav.pager span").startsWith("Page 2 of 501+"));
            this.browser.assertNoConsoleErrors();
        } finally {
            sql.update("DELETE FROM dsched_execution WHERE node_id = 'ui-history'");
        }
    }

    @Test
    void anExecutionsTimesShowItsJobsZoneOnHover() throws Exception {
        String job = OrderJobs.NIGHTLY_REPORT;
        signIn("operator");
        this.browser.page("/jobs", "Jobs");
        assertThat(this.browser.forge("/jobs/" + job + "/trigger", Map.of())).startsWith("200 ");
        long execution = await().atMost(Duration.ofSeconds(30))
                .until(
                        () -> runs(job).stream()
                                .filter((run) ->
                                        "MANUAL".equals(run.get("origin").asString())
                                                && !run.get("finishedAt").isNull())
                                .map((run) -> run.get("id").asLong())
                                .max(Long::compare)
                                .orElse(null),
                        (id) -> id != null);
        this.browser.page("/executions/" + execution, "Execution #" + execution);
        assertThat(this.browser.all("dl.facts time"))
                .hasSize(3)
                .allSatisfy((time) -> assertThat(time.getAttribute("title")).endsWith("(Europe/Berlin)"));
        this.browser.assertNoConsoleErrors();
    }

    @Test
    void deadLettersAreFoundByTimeAndSeveralAreDiscardedOrReplayedAtOnceWithAReason() throws Exception {
        String job = DemoJobs.LEDGER_EXPORT;
        Set<Long> earlier = Set.copyOf(openLetters(job));
        signIn("operator");
        this.browser.page("/jobs", "Jobs");
        for (int i = 0; i < 3; i++) {
            assertThat(this.browser.forge("/jobs/" + job + "/trigger", Map.of()))
                    .startsWith("200 ");
        }
        List<Long> fresh = await().atMost(Duration.ofSeconds(60))
                .until(
                        () -> openLetters(job).stream()
                                .filter((id) -> !earlier.contains(id))
                                .sorted()
                                .toList(),
                        (ids) -> ids.size() >= 3);
        String after = Instant.now().plusSeconds(60).toString();
        String before = Instant.now().minusSeconds(600).toString();

        // by time: none failed from a minute on, all of them from ten minutes ago
        this.browser.page("/dead-letters?job=" + job, "Dead letters");
        filterFrom(after);
        assertThat(this.browser.url()).contains("from=");
        assertThat(this.browser.text("main table")).contains("No dead letter matches.");
        filterFrom(before);
        for (long id : fresh) {
            assertThat(this.browser.all("tr[data-letter='" + id + "']")).hasSize(1);
        }

        // discarding needs a reason: without one nothing is discarded
        check(fresh.get(0));
        check(fresh.get(1));
        this.browser.find("button[data-action=discard-selected]").click();
        this.browser.waitFor((d) -> this.browser.text("#notice").startsWith("Could not discard"));
        assertThat(letterStatus(fresh.get(0))).isEqualTo("OPEN");
        this.browser.find("#bulk-reason").sendKeys("exported by hand");
        this.browser.find("button[data-action=discard-selected]").click();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> "DISCARDED".equals(letterStatus(fresh.get(0)))
                        && "DISCARDED".equals(letterStatus(fresh.get(1))));
        this.browser.waitFor((d) -> this.browser.text("#notice").equals("Discarded 2 dead letter(s)"));
        assertThat(letterStatus(fresh.get(2))).isEqualTo("OPEN");

        check(fresh.get(2));
        this.browser.find("#bulk-reason").sendKeys("the ledger is back");
        this.browser.find("button[data-action=replay-selected]").click();
        await().atMost(Duration.ofSeconds(10)).until(() -> "REPLAYED".equals(letterStatus(fresh.get(2))));
        long execution = this.server
                .read("/dead-letters/" + fresh.get(2))
                .get("executionId")
                .asLong();
        await().atMost(Duration.ofSeconds(30))
                .until(() -> attempts(execution).stream()
                                .filter((attempt) ->
                                        "REPLAY".equals(attempt.get("origin").asString()))
                                .count()
                        == 1);
        // "Any" shows the letters acted on too, also when the page is loaded anew from its address
        this.browser.page("/dead-letters?job=" + job, "Dead letters");
        assertThat(this.browser.all("tr[data-letter='" + fresh.get(0) + "']"))
                .as("a discarded letter among the open ones")
                .isEmpty();
        new Select(this.browser.find("#dl-status")).selectByVisibleText("Any");
        this.browser.leave();
        this.browser.find("form.filters button[type=submit]").click();
        this.browser.heading("Dead letters");
        this.browser.reload("Dead letters");
        assertThat(new Select(this.browser.find("#dl-status"))
                        .getFirstSelectedOption()
                        .getText())
                .isEqualTo("Any");
        for (long id : fresh) {
            assertThat(this.browser.all("tr[data-letter='" + id + "']")).hasSize(1);
        }
        // each letter names its execution, and the node its last attempt failed on
        JsonNode replayed = this.server.read("/dead-letters/" + fresh.get(2));
        assertThat(this.browser.text("tr[data-letter='" + fresh.get(2) + "']"))
                .contains("execution #" + replayed.get("executionId").asLong())
                .contains(replayed.get("nodeId").asString());
        this.browser.screenshot("dead-letters-acted");
        this.browser.page("/audit", "Audit");
        assertThat(this.browser.text("main table"))
                .contains("dead-letter.discard")
                .contains("exported by hand")
                .contains("dead-letter.replay");
        this.browser.assertNoConsoleErrors("/dead-letters/discard");
    }

    @Test
    void timesNameTheirZoneAndOnceAReaderChoosesUtcEveryPageShowsUtcInThatBrowser() throws Exception {
        signIn("viewer");
        this.browser.timeZone("America/New_York");
        this.browser.reload("Overview");
        this.browser.page("/jobs", "Jobs");
        assertThat(this.browser.text("main table time"))
                .as("a next fire, in the browser's zone")
                .containsPattern("EST|EDT|GMT-[45]");

        this.browser.leave();
        new Select(this.browser.find("#times-in")).selectByValue("UTC");
        this.browser.heading("Jobs");
        assertThat(this.browser.all("main table time")).isNotEmpty().allSatisfy((time) -> assertThat(time.getText())
                .endsWith("UTC"));
        // remembered: a new visit shows UTC too
        this.browser.reload("Jobs");
        assertThat(new Select(this.browser.find("#times-in"))
                        .getFirstSelectedOption()
                        .getText())
                .isEqualTo("UTC");
        assertThat(this.browser.text("main table time")).endsWith("UTC");
        // the dead-letter filters take their times in UTC too
        this.browser.page("/dead-letters", "Dead letters");
        assertThat(this.browser.text("form.filters")).contains("Failed from (UTC)");
        this.browser.script("document.getElementById('dl-from').value = '2000-01-01T00:00';");
        this.browser.leave();
        this.browser.find("form.filters button[type=submit]").click();
        this.browser.heading("Dead letters");
        assertThat(this.browser.url()).contains("from=2000-01-01T00%3A00%3A00.000Z");
        this.browser.assertNoConsoleErrors();
    }

    @Test
    void theHeaderStaysInViewWhenTheReaderScrollsDownAPage() throws Exception {
        signIn("viewer");
        this.browser.resize(1280, 360);
        this.browser.page("/jobs", "Jobs");
        Object scrolled = this.browser.script("window.scrollTo(0, document.body.scrollHeight); return window.scrollY;");
        assertThat(((Number) scrolled).doubleValue()).as("the page scrolled").isPositive();
        Object top = this.browser.script("return document.querySelector('header.top').getBoundingClientRect().top;");
        assertThat(((Number) top).doubleValue()).isZero();
        assertThat(this.browser.find("header.top nav").isDisplayed()).isTrue();
    }

    @Test
    void theFireLagLegendKeysHaveTheColoursOfTheirLinesNotTheText() throws Exception {
        signIn("viewer");
        this.browser.page("/", "Overview");
        Object colours = this.browser.script("""
                const of = (css, property) => getComputedStyle(document.querySelector(css))[property];
                const line = (name) => {
                    const probe = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
                    probe.setAttribute('class', 'chart');
                    const path = document.createElementNS('http://www.w3.org/2000/svg', 'path');
                    path.setAttribute('class', 'line ' + name);
                    probe.append(path);
                    document.querySelector('main').append(probe);
                    const stroke = getComputedStyle(path).stroke;
                    probe.remove();
                    return stroke;
                };
                return [of('.legend .key-p50', 'borderLeftColor'), line('line-p50'),
                        of('.legend .key-p95', 'borderLeftColor'), line('line-p95'),
                        of('.legend', 'color')];
                """);
        List<?> shown = (List<?>) colours;
        assertThat(shown.get(0)).as("the p50 key, as its line").isEqualTo(shown.get(1));
        assertThat(shown.get(2)).as("the p95 key, as its line").isEqualTo(shown.get(3));
        assertThat(shown.get(0)).as("the p50 key, not the text").isNotEqualTo(shown.get(4));
        assertThat(shown.get(0)).as("the two keys").isNotEqualTo(shown.get(2));
    }

    @Test
    void aBarChartDrawsAValueBelowZeroAsAnEmptyBarWithoutAnError() throws Exception {
        // as a job's page does for a duration that two machines' clocks made negative
        signIn("viewer");
        this.browser.page("/", "Overview");
        Object heights = this.browser.asyncScript("""
                const done = arguments[arguments.length - 1];
                import('./charts.js').then((charts) => {
                    const svg = charts.bars('durations', [{label: '#1', value: -30}, {label: '#2', value: 1000}]);
                    document.querySelector('main').append(svg);
                    done([...svg.querySelectorAll('rect')].map((bar) => bar.getAttribute('height')).join(' '));
                }, (failure) => done('failed: ' + failure));
                """);
        assertThat(heights).isEqualTo("0 110");
        this.browser.assertNoConsoleErrors();
    }

    private void filterFrom(String iso) {
        this.browser.script(
                "const d = new Date(arguments[0]);"
                        + " document.getElementById('dl-from').value ="
                        + " new Date(d - d.getTimezoneOffset() * 60000).toISOString().slice(0, 16);",
                iso);
        this.browser.leave();
        this.browser.find("form.filters button[type=submit]").click();
        this.browser.heading("Dead letters");
    }

    private void check(long letter) {
        this.browser
                .find("tr[data-letter='" + letter + "'] input[type=checkbox]")
                .click();
    }

    private List<Long> openLetters(String job) {
        return StreamSupport.stream(
                        this.server
                                .read("/dead-letters?status=open&size=200&job=" + job)
                                .get("content")
                                .spliterator(),
                        false)
                .map((letter) -> letter.get("id").asLong())
                .toList();
    }

    private String letterStatus(long letter) {
        return this.server.read("/dead-letters/" + letter).get("status").asString();
    }

    private List<JsonNode> runs(String job) {
        return StreamSupport.stream(
                        this.server
                                .read("/jobs/" + job + "?size=20")
                                .get("executions")
                                .get("content")
                                .spliterator(),
                        false)
                .toList();
    }

    @Test
    void untrustedTextInParametersErrorsAndLogLinesIsShownAsTextAndRunsNothing() throws Exception {
        String job = DemoJobs.UNTRUSTED_TEXT_DEMO;
        signIn("admin");
        this.browser.page("/jobs/" + job, job);
        assertThat(this.browser.find("#params").getAttribute("value")).contains(UNTRUSTED_IN_JSON);
        this.browser.find("button[data-action=trigger]").click();
        await().atMost(Duration.ofSeconds(30))
                .until(() -> this.server
                                .read("/dead-letters?status=open&job=" + job)
                                .get("total")
                                .asLong()
                        >= 1);
        long execution = this.server
                .read("/dead-letters?status=open&job=" + job)
                .get("content")
                .get(0)
                .get("executionId")
                .asLong();
        this.browser.page("/executions/" + execution, "Execution #" + execution);
        assertThat(this.browser.text("pre.error-message")).isEqualTo("Rejected note " + DemoJobs.UNTRUSTED_NOTE);
        assertThat(this.browser.text("pre.log")).contains("Note for attempt 1: " + DemoJobs.UNTRUSTED_NOTE);
        assertThat(this.browser.text("code.error-class")).isEqualTo("java.lang.IllegalArgumentException");
        this.browser.screenshot("untrusted-text-execution");
        this.browser.page("/dead-letters?job=" + job, "Dead letters");
        assertThat(this.browser.text("main table")).contains("<img src=x onerror=");
        this.browser.page("/jobs", "Jobs");

        assertThat(this.browser.script("return window.dschedXss === undefined")).isEqualTo(true);
        assertThat(this.browser.all("main script, main img")).isEmpty();
        signInAgainAsOperatorAndSeeTheParametersAsText(job, execution);
    }

    private void signInAgainAsOperatorAndSeeTheParametersAsText(String job, long execution) throws Exception {
        this.browser.assertNoConsoleErrors();
        // another user, in the browser started afresh (signed out, as a new one would be)
        signIn("operator");
        this.browser.page("/jobs/" + job, job);
        assertThat(this.browser.text("pre.params")).contains(UNTRUSTED_IN_JSON);
        assertThat(this.browser.script("return window.dschedXss === undefined")).isEqualTo(true);
        assertThat(this.browser.all("main script, main img")).isEmpty();
        this.browser.assertNoConsoleErrors();
        // a viewer sees them masked (dsched.management.show-values is when-authorized)
        signIn("viewer");
        this.browser.page("/jobs/" + job, job);
        assertThat(this.browser.text("pre.params")).isEqualTo("******");
        assertThat(this.browser.text("p[data-masked]")).isEqualTo("The parameters are masked.");
        this.browser.page("/executions/" + execution, "Execution #" + execution);
        assertThat(this.browser.text("pre.stack")).isEqualTo("******");
        assertThat(this.browser.text("pre.log")).isEqualTo("******");
        assertThat(this.browser.text("p[data-masked]")).isEqualTo("The payload, stack trace and log lines are masked.");
        this.browser.assertNoConsoleErrors();
    }

    @Test
    void anInvalidCronTypedInTheEditorIsRefusedWithTheReasonAndChangesNothing() throws Exception {
        String job = OrderJobs.NIGHTLY_REPORT;
        signIn("admin");
        this.browser.page("/jobs/" + job, job);
        this.browser.waitFor(
                (d) -> d.findElements(By.cssSelector("ol.preview li")).size() == 5);
        WebElement cron = this.browser.find("#cron");
        cron.clear();
        cron.sendKeys("0 61 * * * *");
        WebElement error = this.browser.find("#cron-check .error");
        assertThat(error.getText()).startsWith("Invalid cron expression '0 61 * * * *'");
        assertThat(error.getAttribute("data-field")).isEqualTo("cron");
        WebElement save = this.browser.find("form.editor button[type=submit]");
        assertThat(save.isEnabled()).isFalse();
        cron.sendKeys(Keys.ENTER);
        this.browser.screenshot("job-invalid-cron");
        assertThat(this.server.read("/jobs/" + job).get("job").get("cron").asString())
                .isEqualTo("0 0 2 * * *");
        String forged = this.browser.forge("/jobs/" + job + "/schedule", Map.of("cron", "0 61 * * * *"));
        assertThat(forged).startsWith("400 ").containsPattern("\"field\"\\s*:\\s*\"cron\"");
        assertThat(this.server.read("/jobs/" + job).get("job").get("cron").asString())
                .isEqualTo("0 0 2 * * *");

        cron.clear();
        cron.sendKeys("0 30 3 * * MON-FRI");
        this.browser.waitFor(
                (d) -> d.findElements(By.cssSelector("ol.preview li")).size() == 5);
        assertThat(this.browser.text("#cron-check")).contains("at 03:30 on weekdays");
        this.browser.find("#schedule-reason").sendKeys("later on weekdays");
        this.browser.waitFor((d) -> save.isEnabled());
        save.click();
        await().atMost(Duration.ofSeconds(10)).until(() -> "0 30 3 * * MON-FRI"
                .equals(this.server.read("/jobs/" + job).get("job").get("cron").asString()));
        // the other tests share the application: give the job its schedule back
        assertThat(this.browser.forge(
                        "/jobs/" + job + "/schedule", Map.of("cron", "0 0 2 * * *", "zone", "Europe/Berlin")))
                .startsWith("200 ");
        this.browser.assertNoConsoleErrors("/schedule-preview?cron=0+61", "/jobs/" + job + "/schedule");
    }
}
