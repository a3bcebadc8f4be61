package io.dsched.internal.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dsched.execution.ExecutionStatus;
import io.dsched.internal.deadletter.DeadLetters;
import io.dsched.internal.execution.FireExecutor;
import io.dsched.test.ClusterNode;
import io.dsched.test.TestCluster;
import io.dsched.test.TestDatabases;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * dsched's meters in a real Prometheus scrape after a known sequence of runs: successes, a fire
 * delivered twice, failures with retries, a dead letter. Run against each database by a small
 * subclass.
 */
abstract class AbstractMetricsTests {

    @RegisterExtension
    final TestCluster cluster = TestCluster.of(this::kind);

    protected abstract TestDatabases.Kind kind();

    /**
     * How a node on this database hears of what other nodes submit, once its listener has probed.
     * @return {@code off} where the database has no notices, and the node finds them by polling
     */
    protected String notices() {
        return "off";
    }

    @Test
    void aKnownSequenceOfRunsShowsInTheScrapeWithItsCounts() {
        ClusterNode node = this.cluster.start(
                "node-1",
                MetricsJobs.class,
                Map.of("dsched.metrics.refresh", "0s", "dsched.metrics.expected-nodes", 3));
        FireExecutor fires = node.bean(FireExecutor.class);
        Instant base = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(60);
        for (int i = 0; i < 3; i++) {
            fires.fire("steady", base.plusSeconds(i));
            awaitGuardReleased("steady");
        }
        fires.fire("steady", base);
        fires.fire("flaky", base);
        fires.fire("doomed", base);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> this.cluster.executions().countByJobNameAndStatus("flaky", ExecutionStatus.SUCCEEDED) == 1
                        && node.bean(DeadLetters.class).openCount() == 1
                        && this.cluster.executions().countByJobNameAndStatus("steady", ExecutionStatus.SUCCEEDED) == 3);

        Map<String, Double> scrape = await().atMost(Duration.ofSeconds(10))
                .until(
                        () -> parse(node.bean(PrometheusMeterRegistry.class).scrape()),
                        (series) -> series.getOrDefault(
                                                "dsched_execution_seconds_count{job=\"flaky\",outcome=\"succeeded\"}",
                                                0.0)
                                        == 1.0
                                && series.getOrDefault("dsched_node_notices{state=\"" + notices() + "\"}", 0.0) == 1.0);

        assertThat(scrape)
                .containsEntry("dsched_execution_seconds_count{job=\"steady\",outcome=\"succeeded\"}", 3.0)
                .containsEntry("dsched_execution_seconds_count{job=\"steady\",outcome=\"failed\"}", 0.0)
                .containsEntry("dsched_execution_seconds_count{job=\"flaky\",outcome=\"failed\"}", 2.0)
                .containsEntry("dsched_execution_seconds_count{job=\"doomed\",outcome=\"failed\"}", 1.0)
                .containsEntry("dsched_execution_seconds_count{job=\"doomed\",outcome=\"dead_lettered\"}", 1.0)
                .containsEntry("dsched_retries_total{job=\"flaky\"}", 2.0)
                .containsEntry("dsched_retries_total{job=\"doomed\"}", 1.0)
                .containsEntry("dsched_dead_letters_total{job=\"doomed\"}", 1.0)
                .containsEntry("dsched_dead_letters_total{job=\"flaky\"}", 0.0)
                .containsEntry("dsched_skipped_total{job=\"steady\",reason=\"already_claimed\"}", 1.0)
                .containsEntry("dsched_skipped_total{job=\"steady\",reason=\"guard_held\"}", 0.0)
                .containsEntry("dsched_recoveries_total{job=\"steady\"}", 0.0)
                .containsEntry("dsched_fire_lag_seconds_count{job=\"steady\"}", 3.0)
                .containsEntry("dsched_fire_lag_seconds_count{job=\"flaky\"}", 3.0)
                .containsEntry("dsched_dead_letters_backlog", 1.0)
                .containsEntry("dsched_cluster_nodes", 1.0)
                .containsEntry("dsched_cluster_nodes_expected", 3.0)
                .containsEntry("dsched_one_off_pending", 0.0)
                .containsEntry("dsched_job_period_seconds{job=\"hourly\"}", 3600.0)
                .containsEntry("dsched_execution_seconds_count{job=\"hourly\",outcome=\"failed\"}", 0.0)
                .containsEntry("dsched_node_notices{state=\"" + notices() + "\"}", 1.0)
                .containsEntry("dsched_node_notices{state=\"polling\"}", 0.0);
        // the fires were due a minute ago: every lag lands above the 30 s bucket and below 5 minutes
        assertThat(scrape)
                .containsEntry("dsched_fire_lag_seconds_bucket{job=\"steady\",le=\"30.0\"}", 0.0)
                .containsEntry("dsched_fire_lag_seconds_bucket{job=\"steady\",le=\"300.0\"}", 3.0);
        assertThat(scrape.get("dsched_job_last_success_timestamp_seconds{job=\"steady\"}"))
                .isBetween(base.getEpochSecond() + 0.0, Instant.now().getEpochSecond() + 1.0);
        assertThat(scrape.get("dsched_job_last_success_timestamp_seconds{job=\"doomed\"}"))
                .isNaN();
    }

    /** Waits until a job's guard is free, so that the next fire of the job is not held back by it. */
    private void awaitGuardReleased(String job) {
        JdbcTemplate jdbc = new JdbcTemplate(this.cluster.observer());
        String held = "SELECT COUNT(*) FROM dsched_lock WHERE name = ? AND lock_until > "
                + this.cluster.platform().dialect().lockClockSql();
        await().atMost(Duration.ofSeconds(10)).until(() -> jdbc.queryForObject(held, Integer.class, job) == 0);
    }

    /** Reads the samples of a scrape in Prometheus's text format, by series. */
    private static Map<String, Double> parse(String scrape) {
        Map<String, Double> series = new HashMap<>();
        for (String line : scrape.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int split = line.lastIndexOf(' ');
            series.put(line.substring(0, split), Double.parseDouble(line.substring(split + 1)));
        }
        return series;
    }
}
