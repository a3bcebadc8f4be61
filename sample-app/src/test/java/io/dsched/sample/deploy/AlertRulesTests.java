package io.dsched.sample.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.dsched.test.Prerequisites;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * Checks what {@code deploy/} ships: the Prometheus alert rules pass {@code promtool check rules} and
 * their unit tests (skipped where promtool is not installed), every panel of the Grafana dashboards
 * has a title and a query, and the rules and dashboards use only the metrics that dsched exports.
 */
class AlertRulesTests {

    private static final Path DEPLOY = Path.of("..", "deploy");

    private static final Path RULES = DEPLOY.resolve("prometheus").resolve("dsched-alerts.yml");

    private static final Path RULE_TESTS = DEPLOY.resolve("prometheus").resolve("dsched-alerts.test.yml");

    private static final List<Path> DASHBOARDS = List.of(
            DEPLOY.resolve("grafana").resolve("dsched-cluster.json"),
            DEPLOY.resolve("grafana").resolve("dsched-job.json"));

    /** The metric families that dsched exports, with their Prometheus names, as documented. */
    private static final Set<String> DOCUMENTED_FAMILIES = Set.of(
            "dsched_execution_seconds",
            "dsched_fire_lag_seconds",
            "dsched_retries_total",
            "dsched_dead_letters_total",
            "dsched_dead_letters_backlog",
            "dsched_skipped_total",
            "dsched_recoveries_total",
            "dsched_cluster_nodes",
            "dsched_cluster_nodes_expected",
            "dsched_one_off_pending",
            "dsched_job_last_success_timestamp_seconds",
            "dsched_job_period_seconds");

    private static final Pattern METRIC_NAME = Pattern.compile("dsched_[a-z_]+");

    private static final Pattern HISTOGRAM_SUFFIX = Pattern.compile("_(bucket|count|sum|max)$");

    private static final Duration PROMTOOL_TIMEOUT = Duration.ofSeconds(60);

    private final ObjectMapper json = JsonMapper.builder().build();

    @TempDir
    Path temp;

    @Test
    void alertRulesAreValidAndPassTheirUnitTests() throws IOException, InterruptedException {
        Optional<Path> promtool = Prerequisites.onPath("promtool");
        Prerequisites.require(promtool.isPresent(), "promtool is not installed: apt-get install prometheus");
        assertSucceeds(promtool.get(), "check", "rules", RULES.toString());
        assertSucceeds(promtool.get(), "test", "rules", RULE_TESTS.toString());
    }

    @Test
    void everyDashboardPanelHasATitleAndAQuery() throws IOException {
        for (Path dashboard : DASHBOARDS) {
            JsonNode panels = this.json.readTree(Files.readString(dashboard)).path("panels");
            assertThat(panels.size()).as("panels of %s", dashboard).isPositive();
            for (JsonNode panel : panels) {
                String title = panel.path("title").stringValueOpt().orElse("");
                assertThat(title)
                        .as("title of panel %s of %s", panel.path("id"), dashboard)
                        .isNotBlank();
                List<String> queries = panel.path("targets")
                        .valueStream()
                        .map((target) -> target.path("expr").stringValueOpt().orElse(""))
                        .toList();
                assertThat(queries)
                        .as("queries of panel '%s' of %s", title, dashboard)
                        .anySatisfy((query) -> assertThat(query).isNotBlank());
            }
        }
    }

    @Test
    void rulesAndDashboardsUseOnlyTheMetricsDschedExports() throws IOException {
        List<Path> files = new ArrayList<>(DASHBOARDS);
        files.add(RULES);
        for (Path file : files) {
            Set<String> families = families(Files.readString(file));
            assertThat(families)
                    .as("metric families used by %s, against those dsched exports", file)
                    .isNotEmpty()
                    .isSubsetOf(DOCUMENTED_FAMILIES);
        }
    }

    private static Set<String> families(String text) {
        Set<String> families = new TreeSet<>();
        Matcher name = METRIC_NAME.matcher(text);
        while (name.find()) {
            families.add(HISTOGRAM_SUFFIX.matcher(name.group()).replaceFirst(""));
        }
        return families;
    }

    private void assertSucceeds(Path promtool, String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(promtool.toString());
        command.addAll(List.of(arguments));
        String commandLine = String.join(" ", command);
        // to a file rather than a pipe, so that a promtool that hangs cannot block the read past the timeout
        Path output = Files.createTempFile(this.temp, "promtool", ".log");
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
        boolean exited = process.waitFor(PROMTOOL_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        if (!exited) {
            process.destroyForcibly().waitFor();
        }
        String printed = Files.readString(output);
        assertThat(exited)
                .as("%s did not finish within %s:%n%s", commandLine, PROMTOOL_TIMEOUT, printed)
                .isTrue();
        assertThat(process.exitValue()).as("%s%n%s", commandLine, printed).isZero();
    }
}
