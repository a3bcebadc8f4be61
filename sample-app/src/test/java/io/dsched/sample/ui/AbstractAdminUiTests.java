package io.dsched.sample.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dsched.internal.cluster.NodeTable;
import io.dsched.internal.store.ClusterTables;
import io.dsched.internal.store.DatabasePlatform;
import io.dsched.jobs.JobScheduler;
import io.dsched.jobs.OneOff;
import io.dsched.sample.demo.DemoJobs;
import io.dsched.sample.order.OrderJobs;
import io.dsched.sample.order.OrderTimeout;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import tools.jackson.databind.JsonNode;

/**
 * The admin UI's core flows in a real headless Chromium against the sample application on a real
 * database: every page with the sample's jobs, executions and nodes; pause and resume a job; read a
 * failing job's execution and replay its dead letter. Run against each database by a small subclass.
 */
abstract class AbstractAdminUiTests extends AdminUiSession {

    @Test
    void aNodeWhoseClockIsBeyondTheMaximumSkewIsMarkedSkewedWithItsOffset() throws Exception {
        javax.sql.DataSource dataSource = this.server.bean(javax.sql.DataSource.class);
        NodeTable nodes = new NodeTable(dataSource, DatabasePlatform.detect(dataSource), ClusterTables.DEFAULT);
        // a live node that measured its clock 30 s ahead, as a skewed node records it: it beats and
        // measures every second, as a real one does, so that it stays alive however long the browser
        // takes to start on a busy machine (one beat alone is forgotten after the node timeout)
        Runnable beat = () -> {
            nodes.heartbeat("ui-node-skewed");
            nodes.recordClockOffset("ui-node-skewed", Duration.ofSeconds(30));
        };
        beat.run();
        ScheduledExecutorService beating = Executors.newSingleThreadScheduledExecutor();
        beating.scheduleWithFixedDelay(beat, 1, 1, TimeUnit.SECONDS);
        try {
            signIn("viewer");
            this.browser.page("/", "Overview");
            this.browser.waitFor(
                    (d) -> d.findElement(By.cssSelector("main table")).getText().contains("ui-node-skewed"));
            String table = this.browser.text("main table");
            assertThat(table).contains("Clock").contains("skewed +30.000 s");
            assertThat(table.lines()
                            .filter((line) -> line.contains("ui-node-1"))
                            .findFirst()
                            .orElseThrow())
                    .doesNotContain("skewed");
            this.browser.screenshot(prefix() + "overview-skewed-node");
            this.browser.assertNoConsoleErrors();
        } finally {
            beating.shutdownNow();
            beating.awaitTermination(10, TimeUnit.SECONDS);
            nodes.remove("ui-node-skewed");
        }
    }

    @Test
    void everyPageLoadsWithoutConsoleErrorsAndShowsTheSampleAppsJobsExecutionsAndNodes() throws Exception {
        await().atMost(Duration.ofSeconds(30))
                .until(() -> this.server
                                .read("/executions?job=" + OrderJobs.SETTLE_PENDING_ORDERS)
                                .get("total")
                                .asLong()
                        > 0);
        signIn("admin");
        this.browser.page("/", "Overview");
        assertThat(this.browser.text("main table")).contains("ui-node-1").contains("alive");
        // the node serves the default group, in which every job of the sample runs
        assertThat(this.browser.text("[data-group='default']"))
                .contains("served")
                .contains("ui-node-1");
        assertThat(this.browser.text(".tiles")).contains("Node groups");
        assertThat(this.browser.all("svg.chart")).hasSize(3);
        assertThat(this.browser.text(".tiles")).contains("Dead-letter backlog").contains("Executions, last hour");
        // executions per minute stack what succeeded, failed and has not ended; every legend key
        // has the colour of the bars or lines it names
        assertThat(this.browser.all("svg.chart rect.bar-ok")).isNotEmpty();
        assertThat(this.browser.script("""
                        const svg = document.querySelector('svg.chart');
                        return [['key-ok', 'rect', 'bar bar-ok', 'fill'], ['key-bad', 'rect', 'bar bar-bad', 'fill'],
                                ['key-other', 'rect', 'bar bar-other', 'fill'], ['key-p50', 'path', 'line line-p50', 'stroke'],
                                ['key-p95', 'path', 'line line-p95', 'stroke']].map(([key, tag, cls, paint]) => {
                            const probe = document.createElementNS('http://www.w3.org/2000/svg', tag);
                            probe.setAttribute('class', cls);
                            svg.append(probe);
                            const drawn = getComputedStyle(probe)[paint];
                            probe.remove();
                            const swatch = getComputedStyle(document.querySelector('.legend .' + key)).borderLeftColor;
                            return key + ' ' + (swatch === drawn ? 'matches' : swatch + ' against ' + drawn);
                        });"""))
                .asInstanceOf(org.assertj.core.api.InstanceOfAssertFactories.LIST)
                .containsExactly(
                        "key-ok matches", "key-bad matches", "key-other matches", "key-p50 matches", "key-p95 matches");
        this.browser.screenshot(prefix() + "overview");

        this.browser.page("/jobs", "Jobs");
        assertThat(this.browser.text("main table"))
                .contains(OrderJobs.SETTLE_PENDING_ORDERS)
                .contains(OrderJobs.NIGHTLY_REPORT)
                .contains("every 5 seconds")
                .contains("Europe/Berlin")
                .contains(DemoJobs.LEDGER_EXPORT);
        this.browser.find("#job-search").sendKeys("nightly");
        this.browser.waitFor(
                (d) -> d.findElements(By.cssSelector("tr[data-job]")).size() == 1);
        this.browser.find("#job-search").sendKeys(Keys.chord(Keys.CONTROL, "a"), Keys.BACK_SPACE);
        this.browser.waitFor(
                (d) -> d.findElements(By.cssSelector("tr[data-job]")).size() > 3);
        this.browser.screenshot(prefix() + "jobs");

        this.browser.page("/jobs/" + OrderJobs.SETTLE_PENDING_ORDERS, OrderJobs.SETTLE_PENDING_ORDERS);
        assertThat(this.browser.text("main")).contains("Recent executions").contains("SUCCEEDED");
        assertThat(this.browser.all("figure svg.chart")).isNotEmpty();
        this.browser.find("#cron");
        this.browser.waitFor(
                (d) -> d.findElements(By.cssSelector("ol.preview li")).size() == 5);
        this.browser.screenshot(prefix() + "job");

        // a sharded job's page lists its fires as wholes: one of them done, its four shards succeeded
        await().atMost(Duration.ofSeconds(30)).until(() -> this.server
                .read("/jobs/" + OrderJobs.RECONCILE_ORDERS)
                .get("fires")
                .valueStream()
                .anyMatch((fire) -> fire.get("state").asString().equals("DONE")
                        && fire.get("succeeded").asInt() == 4));
        this.browser.page("/jobs/" + OrderJobs.RECONCILE_ORDERS, OrderJobs.RECONCILE_ORDERS);
        assertThat(this.browser.text("[data-fires]"))
                .contains("DONE")
                .contains("4 of 4")
                .contains("ui-node-1: 4");
        // a fire's own page lists its shards, each with its node and how its latest attempt ended
        WebElement doneRow = this.browser.all("tr[data-fire]").stream()
                .filter((row) -> row.getText().contains("DONE"))
                .findFirst()
                .orElseThrow();
        long millis = Instant.parse(doneRow.getAttribute("data-fire")).toEpochMilli();
        JsonNode fire = this.server.read("/jobs/" + OrderJobs.RECONCILE_ORDERS + "?fire=" + millis);
        assertThat(fire.get("shards").valueStream().map((shard) -> shard.get("index")
                        .asInt()))
                .containsExactly(0, 1, 2, 3);
        assertThat(fire.get("shards").valueStream().map((shard) -> shard.get("status")
                        .asString()))
                .containsOnly("SUCCEEDED");
        this.browser.leave();
        doneRow.findElement(By.cssSelector("a")).click();
        this.browser.heading("Fire of " + OrderJobs.RECONCILE_ORDERS);
        assertThat(this.browser.all("[data-fire-shards] tr[data-shard]")).hasSize(4);
        assertThat(this.browser.text("[data-fire-shards]"))
                .contains("0 of 4")
                .contains("3 of 4")
                .contains("SUCCEEDED")
                .contains("ui-node-1");
        assertThat(this.browser.text("[data-fire-facts]")).contains("DONE").contains("4 of 4 succeeded");
        this.browser.page("/jobs/" + OrderJobs.SETTLE_PENDING_ORDERS, OrderJobs.SETTLE_PENDING_ORDERS);

        this.browser.find("main table a[href^='#/executions/']").click();
        this.browser.waitFor(
                (d) -> d.findElement(By.cssSelector("main h1")).getText().startsWith("Execution #"));
        assertThat(this.browser.text("main")).contains("Attempts at this fire").contains("Log");

        this.browser.page("/dead-letters", "Dead letters");
        this.browser.screenshot(prefix() + "dead-letters");
        this.browser.page("/limits", "Limits");
        assertThat(this.browser.text("main table")).contains(OrderJobs.ORDER_TIMEOUT);
        this.browser.screenshot(prefix() + "limits");
        this.browser.page("/audit", "Audit");
        this.browser.screenshot(prefix() + "audit");
        this.browser.assertNoConsoleErrors();

        this.browser.darkMode(true);
        this.browser.page("/", "Overview");
        this.browser.screenshot(prefix() + "overview-dark");
        this.browser.darkMode(false);
        this.browser.resize(390, 844);
        this.browser.page("/jobs", "Jobs");
        assertThat(this.browser.text("main table")).contains(OrderJobs.SETTLE_PENDING_ORDERS);
        this.browser.screenshot(prefix() + "jobs-phone");
        this.browser.assertNoConsoleErrors();
    }

    @Test
    void anAdminSetsAHandlersLimitsForTheClusterInTheUiAndTakesThemBack() throws Exception {
        String handler = OrderJobs.ORDER_TIMEOUT;
        signIn("admin");
        this.browser.page("/limits", "Limits");
        String row = "tr[data-limit='" + handler + "']";
        assertThat(this.browser.find(row + " td[data-max-concurrent]").getAttribute("data-max-concurrent"))
                .isEqualTo("4");
        assertThat(this.browser.text(row))
                .contains("declared")
                .contains("no rate")
                .contains("no quota");

        this.browser.find("#limit-max-concurrent").sendKeys("6");
        this.browser.find("#limit-rate").sendKeys("20/1s");
        this.browser.find("#limit-reason").sendKeys("the provider raised our quota");
        this.browser.find("form[aria-label='Set limits'] button[type=submit]").click();
        this.browser.waitFor((d) -> d.findElement(By.cssSelector(row + " td[data-max-concurrent]"))
                .getAttribute("data-max-concurrent")
                .equals("6"));
        assertThat(this.browser.text(row))
                .contains("20/1s")
                .contains("at run time")
                .contains("declared: 4")
                .contains("by admin")
                .doesNotContain("[object");
        assertThat(this.browser.text("#notice")).contains("set for every node");
        JsonNode limit = this.server.read("/limits").get(0);
        assertThat(limit.get("name").asString()).isEqualTo(handler);
        assertThat(limit.get("maxConcurrent").asInt()).isEqualTo(6);
        assertThat(limit.get("rate").asString()).isEqualTo("20/1s");
        assertThat(limit.get("setBy").asString()).isEqualTo("admin");
        assertThat(limit.get("quota").isNull()).isTrue();

        // a quota alone, the other limits kept
        this.browser.find("#limit-quota").sendKeys("20/1d");
        this.browser.find("#limit-reason").sendKeys("the partner bills past 20 a day");
        this.browser.find("form[aria-label='Set limits'] button[type=submit]").click();
        String quota = row + " td[data-quota]";
        this.browser.waitFor((d) ->
                d.findElement(By.cssSelector(quota)).getAttribute("data-quota").equals("20/1d"));
        assertThat(this.browser.text(quota)).matches("(?s)\\d+ of 20/1d used.*").contains("declared: no quota");
        assertThat(this.browser.find(row + " td[data-max-concurrent]").getAttribute("data-max-concurrent"))
                .isEqualTo("6");
        assertThat(this.browser.text(row)).contains("20/1s").doesNotContain("[object");
        limit = this.server.read("/limits").get(0);
        assertThat(limit.get("quota").asString()).isEqualTo("20/1d");
        assertThat(limit.get("declaredQuota").isNull()).isTrue();
        assertThat(limit.get("quotaUsed").asInt()).isGreaterThanOrEqualTo(0);
        assertThat(limit.get("maxConcurrent").asInt()).isEqualTo(6);
        assertThat(limit.get("rate").asString()).isEqualTo("20/1s");
        this.browser.screenshot(prefix() + "limits-set");

        this.browser.find(row + " button[data-action=reset]").click();
        this.browser.waitFor((d) -> d.findElement(By.cssSelector(row + " td[data-max-concurrent]"))
                .getAttribute("data-max-concurrent")
                .equals("4"));
        assertThat(this.browser.text(row))
                .contains("declared")
                .contains("no rate")
                .contains("no quota");
        assertThat(this.browser.find(row + " td[data-quota]").getAttribute("data-quota"))
                .isEmpty();
        JsonNode reset = this.server.read("/limits").get(0);
        assertThat(reset.get("setBy").isNull()).isTrue();
        assertThat(reset.get("quota").isNull()).isTrue();
        this.browser.page("/audit", "Audit");
        assertThat(this.browser.text("main table")).contains("limit.set").contains("limit.reset");
        this.browser.assertNoConsoleErrors();
    }

    @Test
    void anOperatorPausesAJobInTheUiAndItStopsFiringThenResumesItAndItFiresAgain() throws Exception {
        String job = OrderJobs.SETTLE_PENDING_ORDERS;
        await().atMost(Duration.ofSeconds(30)).until(() -> latestScheduledFire(job) != null);
        signIn("operator");
        this.browser.page("/jobs", "Jobs");
        WebElement row = this.browser.find("tr[data-job='" + job + "']");
        assertThat(row.getText()).contains("*/5 * * * * *").contains("every 5 seconds");
        row.findElement(By.cssSelector("button[data-action=pause]")).click();
        this.browser.waitFor((d) -> d.findElement(By.cssSelector("tr[data-job='" + job + "'] td[data-state]"))
                .getAttribute("data-state")
                .equals("paused"));
        Instant paused = Instant.now();
        assertThat(this.server.read("/jobs/" + job).get("job").get("paused").asBoolean())
                .isTrue();
        this.browser.screenshot(prefix() + "jobs-paused");

        // a fire due after the pause never runs while the job is paused
        await().during(Duration.ofSeconds(8)).atMost(Duration.ofSeconds(12)).until(() -> {
            Instant latest = latestScheduledFire(job);
            return latest == null || latest.isBefore(paused.plusSeconds(1));
        });

        this.browser
                .find("tr[data-job='" + job + "'] button[data-action=resume]")
                .click();
        this.browser.waitFor((d) -> d.findElement(By.cssSelector("tr[data-job='" + job + "'] td[data-state]"))
                .getAttribute("data-state")
                .equals("active"));
        Instant resumed = Instant.now();
        assertThat(this.server.read("/jobs/" + job).get("job").get("paused").asBoolean())
                .isFalse();
        await().atMost(Duration.ofSeconds(20)).until(() -> {
            Instant latest = latestScheduledFire(job);
            return latest != null && latest.isAfter(resumed);
        });
        this.browser.page("/audit", "Audit");
        assertThat(this.browser.text("main table")).contains("job.pause").contains("job.resume");
        // the audited job's page is a click away
        this.browser.leave();
        this.browser.find("main table a[href='#/jobs/" + job + "']").click();
        this.browser.heading(job);
        this.browser.assertNoConsoleErrors();
    }

    @Test
    void aFailingJobsExecutionShowsItsStackTraceAndLogLinesAndReplayingItsDeadLetterRunsItOnce() throws Exception {
        String job = DemoJobs.LEDGER_EXPORT;
        signIn("operator");
        this.browser.page("/jobs", "Jobs");
        this.browser
                .find("tr[data-job='" + job + "'] button[data-action=trigger]")
                .click();
        await().atMost(Duration.ofSeconds(30))
                .until(() -> this.server
                                .read("/dead-letters?status=open&job=" + job)
                                .get("total")
                                .asLong()
                        >= 1);
        JsonNode letter = this.server
                .read("/dead-letters?status=open&job=" + job)
                .get("content")
                .get(0);
        String key = letter.get("idempotencyKey").asString();

        // the Jobs page counts the job's open letters, a click away from their list; more may come
        // meanwhile (the job fails on its schedule too), none go
        this.browser.reload("Jobs");
        long counted = Long.parseLong(this.browser
                .find("tr[data-job='" + job + "'] [data-dead-letters]")
                .getAttribute("data-dead-letters"));
        assertThat(counted)
                .isBetween(
                        1L,
                        this.server
                                .read("/dead-letters?status=open&job=" + job)
                                .get("total")
                                .asLong());
        this.browser.leave();
        this.browser.find("tr[data-job='" + job + "'] a[data-dead-letters]").click();
        this.browser.heading("Dead letters");
        assertThat(this.browser.url()).contains("job=" + job);
        assertThat(this.browser.all("tr[data-letter='" + letter.get("id").asLong() + "']"))
                .hasSize(1);

        // the DschedDeadLetters alert's link, followed by an operator who is not signed in yet: the
        // sign-in lands on the page it names
        signIn("operator", "/dead-letters?job=" + job);
        this.browser.heading("Dead letters");
        assertThat(this.browser.url()).contains("#/dead-letters?job=" + job);
        assertThat(this.browser.find("#dl-job").getAttribute("value")).isEqualTo(job);
        this.browser
                .find("tr[data-letter='" + letter.get("id").asLong() + "'] a[href^='#/executions/']")
                .click();
        this.browser.heading("Execution #" + letter.get("executionId").asLong());
        assertThat(this.browser.text("pre.stack"))
                .contains("java.lang.IllegalStateException: Ledger unavailable")
                .contains("at io.dsched.sample.demo.DemoJobs.exportToLedger");
        assertThat(this.browser.text("pre.log"))
                .contains("Exporting settlements of fire")
                .contains("The ledger did not answer within 5s");
        assertThat(this.browser.all("ol.attempts li")).hasSize(2);
        // the summary on top: what failed, where, after how many attempts, and the way down to the
        // stack trace and the log lines
        assertThat(this.browser.text("section.triage"))
                .contains("DEAD_LETTERED")
                .contains("java.lang.IllegalStateException: Ledger unavailable")
                .contains("Attempt 2 of 2 at this fire, on node ui-node-1");
        assertThat(this.browser.script("return window.scrollY")).isEqualTo(0L);
        this.browser.find("section.triage a[data-jump=log-h]").click();
        this.browser.waitFor((d) -> ((Number) this.browser.script("return window.scrollY")).longValue() > 0);
        assertThat(this.browser.url())
                .endsWith("#/executions/" + letter.get("executionId").asLong());
        this.browser.script("window.scrollTo(0, 0)");
        assertThat(this.browser.text("li[data-letter='" + letter.get("id").asLong() + "']"))
                .contains("OPEN")
                .contains("held by execution #" + letter.get("executionId").asLong());
        this.browser.screenshot(prefix() + "execution");

        // a mark that a reload would wipe: the replay's page follows the new attempt without one
        this.browser.script("window.dschedNotReloaded = true");
        this.browser.find("#letter-reason").sendKeys("the ledger is back");
        this.browser.find("button[data-action=replay]").click();
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            List<JsonNode> attempts = attempts(letter.get("executionId").asLong());
            return attempts.size() == 3 && !attempts.get(2).get("finishedAt").isNull();
        });
        // the replay ran once: one more attempt, from the replay, and no other
        await().during(Duration.ofSeconds(3))
                .atMost(Duration.ofSeconds(6))
                .until(() -> attempts(letter.get("executionId").asLong()).size() == 3);
        JsonNode replay = attempts(letter.get("executionId").asLong()).get(2);
        assertThat(replay.get("origin").asString()).isEqualTo("REPLAY");
        assertThat(replay.get("idempotencyKey").asString()).isEqualTo(key);
        assertThat(this.server
                        .read("/dead-letters/" + letter.get("id").asLong())
                        .get("status")
                        .asString())
                .isEqualTo("REPLAYED");
        long replayId = replay.get("id").asLong();
        this.browser.heading("Execution #" + replayId);
        assertThat(this.browser.text("#notice"))
                .contains("Replayed dead letter #" + letter.get("id").asLong());
        // the replay fails again: its page shows that, with its own error, not as it was when opened
        this.browser.waitFor((d) -> this.browser.all("[data-live]").isEmpty()
                && this.browser.text("dl.facts").contains(replay.get("status").asString()));
        assertThat(this.browser.script("return window.dschedNotReloaded === true"))
                .isEqualTo(true);
        assertThat(this.browser.text("section.triage")).contains("Attempt 3 of 3");
        // the replay and the letters link both ways: the replay names the letter it replayed, the
        // letter the replay, and the new letter the one whose replay it ends
        assertThat(this.browser.find("[data-replay-of]").getAttribute("href"))
                .endsWith("#/executions/" + letter.get("executionId").asLong());
        JsonNode letters = this.server.read("/executions/" + replayId).get("deadLetters");
        assertThat(letters).hasSize(2);
        assertThat(this.browser.text(
                        "li[data-letter='" + letters.get(1).get("id").asLong() + "']"))
                .contains("the end of the replay of dead letter #"
                        + letter.get("id").asLong())
                .contains("held by execution #" + replayId);
        this.browser.script("window.scrollTo(0, 0)");
        this.browser.screenshot(prefix() + "execution-replayed");
        // the replay of the new letter, for the moment before a node claims it (too short to catch
        // on a real node): an attempt that has not failed shows the letter's error as the earlier
        // attempt's, not as its own. The page is given that attempt in place of the endpoint's answer
        long waiting = replayId + 100_000;
        this.browser.script("""
                const [waiting, real] = arguments;
                const original = window.fetch;
                const due = new Date(Date.now() + 3600000).toISOString();
                window.fetch = async (url, options) => {
                    if (!String(url).endsWith('/executions/' + waiting)) return original(url, options);
                    const body = await (await original(String(url).replace(/\\d+$/, real), options)).json();
                    body.execution = {...body.execution, id: waiting, attempt: body.execution.attempt + 1,
                        status: 'SCHEDULED', origin: 'REPLAY', errorClass: null, errorMessage: null,
                        finishedAt: null, dueAt: due};
                    const last = body.deadLetters.length - 1;
                    body.deadLetters[last] = {...body.deadLetters[last], status: 'REPLAYED'};
                    body.deadLetter = body.deadLetters[last];
                    body.log = null;
                    return new Response(JSON.stringify(body), {status: 200, headers: {'Content-Type': 'application/json'}});
                };
                location.hash = '#/executions/' + waiting;""", waiting, replayId);
        this.browser.heading("Execution #" + waiting);
        assertThat(this.browser.all("section.triage")).isEmpty();
        assertThat(this.browser.text("#error-h")).isEqualTo("The last failed attempt's error");
        assertThat(this.browser.find("[data-inherited] a").getAttribute("href")).endsWith("#/executions/" + replayId);
        assertThat(this.browser.text("[data-inherited]"))
                .contains("Not this attempt's")
                .contains("dead letter #" + letters.get(1).get("id").asLong());
        assertThat(this.browser.find("[data-replay-of]").getAttribute("href")).endsWith("#/executions/" + replayId);
        this.browser.leave();
        // the fact near the top, where the header that stays in view would cover it if scrolled there
        this.browser.script("window.scrollTo(0, 0)");
        this.browser.find("[data-replay-of]").click();
        this.browser.heading("Execution #" + replayId);
        this.browser.leave();
        this.browser.script("window.scrollTo(0, 0)");
        this.browser.find("[data-replay-of]").click();
        this.browser.heading("Execution #" + letter.get("executionId").asLong());
        assertThat(this.browser
                        .find("li[data-letter='" + letter.get("id").asLong() + "'] a[data-replay]")
                        .getAttribute("href"))
                .endsWith("#/executions/" + replayId);
        assertThat(this.browser.text("li[data-letter='" + letter.get("id").asLong() + "']"))
                .contains("REPLAYED")
                .contains("the ledger is back");
        this.browser.page("/audit", "Audit");
        assertThat(this.browser.text("main table"))
                .contains("dead-letter.replay")
                .contains("the ledger is back");
        this.browser.assertNoConsoleErrors();
    }

    @Test
    void anOperatorCancelsAWaitingOneOffFromItsExecutionPageAndItNeverRuns() throws Exception {
        long id = this.server
                .bean(JobScheduler.class)
                .submit(OneOff.of(OrderJobs.ORDER_TIMEOUT, new OrderTimeout(424_242L))
                        .after(Duration.ofHours(1)))
                .executionId();
        signIn("operator");
        this.browser.page("/executions/" + id, "Execution #" + id);
        assertThat(this.browser.text("dl.facts")).contains("SCHEDULED");

        this.browser.find("button[data-action=cancel]").click();

        await().atMost(Duration.ofSeconds(10)).until(() -> "CANCELLED"
                .equals(this.server
                        .read("/executions/" + id)
                        .get("execution")
                        .get("status")
                        .asString()));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> this.browser.all("button[data-action=cancel]").isEmpty()
                        && this.browser.text("dl.facts").contains("CANCELLED"));
        assertThat(this.browser.text("dl.facts")).contains("cancelled by operator");
        this.browser.page("/audit", "Audit");
        assertThat(this.browser.text("main table")).contains("execution.cancel");
        assertThat(this.browser.all("main table a[href='#/executions/" + id + "']"))
                .as("the cancelled execution, linked")
                .isNotEmpty();
        this.browser.assertNoConsoleErrors();
    }

    @Test
    void anAttemptsPageFollowsItUntilItEnds() throws Exception {
        // a one-off due within the minute, which the page reads every 1.5 s, but long after the page
        // has loaded however busy the machine: it still waits when the page opens, and ends when the
        // test cancels it, away from the browser
        signIn("viewer");
        JobScheduler scheduler = this.server.bean(JobScheduler.class);
        long id = scheduler
                .submit(OneOff.of(OrderJobs.ORDER_TIMEOUT, new OrderTimeout(525_252L))
                        .after(Duration.ofSeconds(50)))
                .executionId();
        this.browser.page("/executions/" + id, "Execution #" + id);
        assertThat(this.browser.find("[data-live]").getAttribute("data-live")).isEqualTo("SCHEDULED");
        this.browser.script("window.dschedNotReloaded = true");
        scheduler.cancel(id);
        this.browser.waitFor((d) -> this.browser.all("[data-live]").isEmpty()
                && this.browser.text("dl.facts").contains("CANCELLED"));
        assertThat(this.browser.script("return window.dschedNotReloaded === true"))
                .isEqualTo(true);
        this.browser.assertNoConsoleErrors();
    }

    private Instant latestScheduledFire(String job) {
        JsonNode runs =
                this.server.read("/jobs/" + job + "?size=5").get("executions").get("content");
        return StreamSupport.stream(runs.spliterator(), false)
                .filter((run) -> "SCHEDULE".equals(run.get("origin").asString()))
                .map((run) -> Instant.parse(run.get("scheduledAt").asString()))
                .max(Instant::compareTo)
                .orElse(null);
    }
}
