package io.dsched.sample.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.web.client.RestClient;

/**
 * Every dsched series that a dashboard or an alert rule in {@code deploy/} queries is in a real
 * scrape of the sample application's {@code /actuator/prometheus}, from the moment it starts.
 */
@SpringBootTest(
        webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = {"spring.datasource.url=jdbc:h2:mem:scrape;DB_CLOSE_DELAY=-1", "dsched.node-id=scrape-node"})
class PrometheusScrapeTests {

    private static final Pattern SERIES = Pattern.compile("\\bdsched_[a-z_]+");

    /** Not series: the external labels and the dashboards' variable that say where links lead. */
    private static final Set<String> LINK_SETTINGS = Set.of("dsched_ui", "dsched_runbook");

    @LocalServerPort
    private int port;

    @Test
    void everySeriesTheDashboardsAndAlertRulesQueryIsScraped() throws IOException {
        String scrape = RestClient.create("http://localhost:" + this.port)
                .get()
                .uri("/actuator/prometheus")
                .retrieve()
                .body(String.class);
        Set<String> scraped = new TreeSet<>();
        for (String line : scrape.split("\n")) {
            if (line.startsWith("dsched_")) {
                scraped.add(line.split("[{ ]", 2)[0]);
            }
        }

        Set<String> queried = queried(Path.of("..", "deploy"));

        assertThat(queried).as("series queried in deploy/").isNotEmpty();
        assertThat(scraped).containsAll(queried);
    }

    private static Set<String> queried(Path deploy) throws IOException {
        Set<String> names = new TreeSet<>();
        try (Stream<Path> files = Files.walk(deploy)) {
            for (Path file : files.filter(
                            (path) -> isQueryFile(path.getFileName().toString()))
                    .toList()) {
                Matcher matcher = SERIES.matcher(Files.readString(file));
                while (matcher.find()) {
                    if (!LINK_SETTINGS.contains(matcher.group())) {
                        names.add(matcher.group());
                    }
                }
            }
        }
        return names;
    }

    private static boolean isQueryFile(String name) {
        return name.endsWith(".json") || (name.endsWith(".yml") && !name.endsWith(".test.yml"));
    }
}
