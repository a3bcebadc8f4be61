package io.dsched.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** RESULTS.md is made from the raw reports, never written by hand. */
class ResultsPageTests {

    private static final String POSTGRES_REPORT = """
            # dsched benchmark, postgresql

            - date: 2026-12-06T16:16:54Z
            - commit: 7faa94cf062d361af55832d7c300c577259ad004 (clean)
            - command: `./mvnw -B -Pbench -pl benchmarks -am package -DskipTests`

            ## Ceiling: pgbench simple-update on the same server

            | clients | TPS |
            | --- | --- |
            | 8 | 7,879 |

            ## W1: 20,000 one-off jobs due at once, 2 nodes, 5 runs

            | contestant | executions/s |
            | --- | --- |
            | dsched | 3,073 (2,963–3,180) |

            Every run, in the order they ran:

            ### dsched

            ## W2: 500 recurring jobs, 2 nodes, 5 runs

            | contestant | lag p99 ms |
            | --- | --- |
            | dsched | 164 |
            """;

    private static final String MARIADB_REPORT = """
            # dsched benchmark, mariadb

            - date: 2026-12-06T18:00:00Z

            ## W5, submitted on a node: one-offs at 50/s, 5 runs

            on a node

            ## W5, submitted by a client: one-offs at 50/s, 5 runs

            by a client
            """;

    private static final String LIMITS_REPORT = """
            # dsched benchmark, postgresql

            - date: 2026-12-08T10:00:00Z
            - command: `./mvnw -B -Pbench -pl benchmarks -am package -DskipTests -Dbench.args="--workloads W6"`

            ## W6, concurrency: dsched's handler at `maxConcurrent = 5`, 1,000 one-offs due at once

            | contestant | jobs run | missing | duplicates | most at once | overshoot over 5 |
            | --- | --- | --- | --- | --- | --- |
            | dsched | 1,000 | 0 | 0 | 5 | 0 |

            ## W6, rate: dsched's handler at `rate = "100/1s"`, 1,000 one-offs due at once

            | contestant | jobs run | missing | duplicates | most starts in 1 s | overshoot over 200 |
            | --- | --- | --- | --- | --- | --- |
            | dsched | 1,000 | 0 | 0 | 200 | 0 |
            """;

    @TempDir
    Path results;

    @Test
    void theCommittedPageIsTheOneItsReportsMake() throws IOException {
        Path module = Path.of(System.getProperty("basedir", "."));
        String committed = Files.readString(module.resolve("RESULTS.md"), StandardCharsets.UTF_8);

        assertThat(committed)
                .as("RESULTS.md is stale or edited by hand: run ./mvnw -B -Presults -pl benchmarks -am package"
                        + " -DskipTests")
                .isEqualTo(new ResultsPage(module.resolve("results")).render());
    }

    @Test
    void thePageCopiesWhereTheNumbersComeFromAndTheWorkloadsListedGroupedByDatabase() throws IOException {
        write("a/w1-w2.md", POSTGRES_REPORT);
        write("b/w5.md", MARIADB_REPORT);
        write(ResultsPage.LIST, """
                # the reports of the page
                b/w5.md W5 on Java 25
                a/w1-w2.md W1,Ceiling
                """);

        String page = new ResultsPage(this.results).render();

        assertThat(page)
                .contains("- commit: 7faa94cf062d361af55832d7c300c577259ad004 (clean)")
                .contains("### Ceiling, W1: [a/w1-w2.md](results/a/w1-w2.md)")
                .contains("#### W1: 20,000 one-off jobs due at once, 2 nodes, 5 runs\n\n| contestant | executions/s |")
                .contains("| 8 | 7,879 |")
                .contains("\n##### dsched\n")
                .contains("### W5, on Java 25: [b/w5.md](results/b/w5.md)")
                .contains("#### W5, submitted on a node")
                .contains("#### W5, submitted by a client")
                .doesNotContain("W2")
                .doesNotContain("the reports of the page");
        assertThat(page.indexOf("## MariaDB")).as("in the order listed").isLessThan(page.indexOf("## PostgreSQL"));
        assertThat(page.indexOf("## PostgreSQL")).isLessThan(page.indexOf("| 8 | 7,879 |"));
    }

    @Test
    void theLimitsWorkloadIsCopiedWithBothItsTables() throws IOException {
        write("c/w6.md", LIMITS_REPORT);
        write(ResultsPage.LIST, "c/w6.md W6\n");

        String page = new ResultsPage(this.results).render();

        assertThat(page)
                .contains("### W6: [c/w6.md](results/c/w6.md)")
                .contains("#### W6, concurrency: dsched's handler at `maxConcurrent = 5`")
                .contains("| dsched | 1,000 | 0 | 0 | 5 | 0 |")
                .contains("#### W6, rate: dsched's handler at `rate = \"100/1s\"`")
                .contains("| dsched | 1,000 | 0 | 0 | 200 | 0 |");
        assertThat(page.indexOf("#### W6, concurrency")).isLessThan(page.indexOf("#### W6, rate"));
    }

    @Test
    void aReportWithoutAWorkloadListedForItIsRefused() throws IOException {
        write("a/w1-w2.md", POSTGRES_REPORT);
        write(ResultsPage.LIST, "a/w1-w2.md W1,W4\n");

        assertThatThrownBy(() -> new ResultsPage(this.results).render()).hasMessageContaining("has no section W4");
    }

    @Test
    void onlyARawReportOfTheModuleCanBeListed() throws IOException {
        write("a/README.md", "# What a run showed\n\n## W1: by hand\n");
        write(ResultsPage.LIST, "a/README.md W1\n");

        assertThatThrownBy(() -> new ResultsPage(this.results).render()).hasMessageContaining("not a raw report");
    }

    private void write(String path, String text) throws IOException {
        Path file = this.results.resolve(path);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
    }
}
