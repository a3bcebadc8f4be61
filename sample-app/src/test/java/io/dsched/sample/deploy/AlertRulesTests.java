package io.dsched.sample.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import io.dsched.test.Prerequisites;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.yaml.snakeyaml.Yaml;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * Checks what {@code deploy/} ships: the Prometheus alert rules pass {@code promtool check rules} and
 * their unit tests (skipped where promtool is not installed), every panel of the Grafana dashboards
 * has a title and a query, and the rules and dashboards use only the metrics that dsched exports.
 * Every alert links the section of {@code docs/runbook.md} about it and a page of the admin UI, and
 * the dashboards link the admin UI's pages: each link names a section that exists and a route that
 * the UI has.
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
            "dsched_group_nodes",
            "dsched_limit_running",
            "dsched_limit_max_concurrent",
            "dsched_limit_waiting",
            "dsched_limit_tokens",
            "dsched_limit_quota_used",
            "dsched_one_off_pending",
            "dsched_job_last_success_timestamp_seconds",
            "dsched_job_period_seconds",
            "dsched_shards_per_fire",
            "dsched_shard_fire_completion_seconds",
            "dsched_shard_fire_shards_on_node",
            "dsched_shard_fires_partial",
            "dsched_shards_dead_lettered");

    private static final Path RUNBOOK = Path.of("..", "docs", "runbook.md");

    /** The admin UI's router, whose routes every link into the UI must name. */
    private static final Path UI_ROUTER =
            Path.of("..", "admin-ui", "src", "main", "resources", "META-INF", "dsched-ui", "app.js");

    private static final String RUNBOOK_BASE = "{{ $externalLabels.dsched_runbook }}#";

    private static final String UI_BASE = "{{ $externalLabels.dsched_ui }}/#";

    /** Not metrics: the external labels and the dashboards' variable that say where the links lead. */
    private static final Set<String> LINK_SETTINGS = Set.of("dsched_ui", "dsched_runbook");

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

    @Test
    void everyAlertLinksTheRunbookSectionAboutItAndAPageOfTheAdminUi() throws IOException {
        Set<String> sections = runbookSections();
        List<Pattern> routes = uiRoutes();
        List<Map<String, Object>> rules = rules();
        assertThat(rules).hasSize(9);
        for (Map<String, Object> rule : rules) {
            String alert = (String) rule.get("alert");
            @SuppressWarnings("unchecked")
            Map<String, String> annotations = (Map<String, String>) rule.get("annotations");
            assertThat(annotations).as("annotations of %s", alert).containsKeys("runbook_url", "ui_url");
            // the section is the one about this alert: its heading is the alert's name
            assertThat(annotations.get("runbook_url"))
                    .as("runbook_url of %s", alert)
                    .isEqualTo(RUNBOOK_BASE + anchor(alert));
            assertThat(sections).as("sections of %s", RUNBOOK).contains(anchor(alert));
            assertThat(annotations.get("ui_url")).as("ui_url of %s", alert).startsWith(UI_BASE);
            assertNamesAUiRoute(annotations.get("ui_url").substring(UI_BASE.length()), routes, alert);
        }
    }

    @Test
    void everyDashboardLinksTheAdminUiThroughItsVariable() throws IOException {
        List<Pattern> routes = uiRoutes();
        for (Path dashboard : DASHBOARDS) {
            JsonNode root = this.json.readTree(Files.readString(dashboard));
            assertThat(root.path("templating").path("list").valueStream().map((v) -> v.path("name")
                            .asString()))
                    .as("variables of %s", dashboard)
                    .contains("dsched_ui");
            // every link, wherever a dashboard keeps it: its own, a panel's, a field's or an override's
            List<String> urls = new ArrayList<>();
            collectUrls(root, urls);
            List<String> ui = urls.stream()
                    .filter((url) -> url.startsWith("${dsched_ui}/#"))
                    .toList();
            assertThat(ui).as("links of %s into the admin UI", dashboard).hasSizeGreaterThanOrEqualTo(2);
            for (String url : ui) {
                assertNamesAUiRoute(url.substring("${dsched_ui}/#".length()), routes, dashboard.toString());
            }
        }
    }

    /**
     * A link's page, its templated parts stood in for by a value, against the UI's routes, and the
     * keys of its query against those the UI's pages read.
     */
    private static void assertNamesAUiRoute(String page, List<Pattern> routes, String where) throws IOException {
        String[] parts = page.replaceAll("\\{\\{[^}]*}}|\\$\\{[^}]*}", "x").split("\\?", 2);
        assertThat(routes)
                .as("the UI's routes, for the page %s linked by %s", page, where)
                .anySatisfy(
                        (route) -> assertThat(route.matcher(parts[0]).matches()).isTrue());
        if (parts.length > 1) {
            Set<String> read = uiQueryKeys();
            for (String parameter : parts[1].split("&")) {
                assertThat(read)
                        .as("the query keys the UI reads, for %s linked by %s", page, where)
                        .contains(parameter.split("=")[0]);
            }
        }
    }

    /** The keys of a page's address that the UI's modules read, as {@code query.get('job')}. */
    private static Set<String> uiQueryKeys() throws IOException {
        Set<String> keys = new TreeSet<>();
        try (var modules = Files.list(UI_ROUTER.getParent())) {
            for (Path module :
                    modules.filter((file) -> file.toString().endsWith(".js")).toList()) {
                Matcher key =
                        Pattern.compile("query\\.(?:get|has)\\('([a-z]+)'\\)").matcher(Files.readString(module));
                while (key.find()) {
                    keys.add(key.group(1));
                }
            }
        }
        return keys;
    }

    private static void collectUrls(JsonNode node, List<String> urls) {
        if (node.isObject()) {
            node.properties().forEach((field) -> {
                if (field.getKey().equals("url") && field.getValue().isString()) {
                    urls.add(field.getValue().asString());
                } else {
                    collectUrls(field.getValue(), urls);
                }
            });
        } else if (node.isArray()) {
            node.valueStream().forEach((item) -> collectUrls(item, urls));
        }
    }

    /** The anchors of the runbook's second-level headings, as GitHub and most renderers make them. */
    private static Set<String> runbookSections() throws IOException {
        return Files.readAllLines(RUNBOOK).stream()
                .filter((line) -> line.startsWith("## "))
                .map((line) -> anchor(line.substring(3)))
                .collect(Collectors.toSet());
    }

    private static String anchor(String heading) {
        return heading.strip()
                .toLowerCase(Locale.ROOT)
                .replaceAll("[^a-z0-9 _-]", "")
                .replace(' ', '-');
    }

    /** The routes of app.js, each a regular expression literal such as {@code /^\/jobs\/(.+)$/}. */
    private static List<Pattern> uiRoutes() throws IOException {
        Matcher route = Pattern.compile("\\[/\\^(.*?)\\$/,").matcher(Files.readString(UI_ROUTER));
        List<Pattern> routes = new ArrayList<>();
        while (route.find()) {
            routes.add(Pattern.compile(route.group(1)));
        }
        assertThat(routes).as("routes of %s", UI_ROUTER).hasSizeGreaterThan(3);
        return routes;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> rules() throws IOException {
        Map<String, Object> file = new Yaml().load(Files.readString(RULES));
        return ((List<Map<String, Object>>) file.get("groups"))
                .stream()
                        .flatMap((group) -> ((List<Map<String, Object>>) group.get("rules")).stream())
                        .toList();
    }

    private static Set<String> families(String text) {
        Set<String> families = new TreeSet<>();
        Matcher name = METRIC_NAME.matcher(text);
        while (name.find()) {
            if (!LINK_SETTINGS.contains(name.group())) {
                families.add(HISTOGRAM_SUFFIX.matcher(name.group()).replaceFirst(""));
            }
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
