package io.dsched.sample.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.dsched.jobs.JobScheduler;
import io.dsched.sample.order.OrderJobs;
import io.dsched.test.Prerequisites;
import io.dsched.test.TestDatabases;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class H2SampleSecurityTests extends AbstractSampleSecurityTests {

    private static final Path README = Path.of("..", "README.md");

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.H2;
    }

    /** The README's commands for scripts, run as given, against this sample instead of port 8081. */
    @Test
    void theReadmesRecipeForScriptsPausesAJobAndPlacesAnOrder(@TempDir Path directory) throws Exception {
        Prerequisites.require(Prerequisites.onPath("curl").isPresent(), "curl is not installed: apt-get install curl");
        String recipe = block(Files.readString(README), "a script keeps the cookie in a jar:")
                .replace("localhost:8081", URI.create(this.server.base()).getAuthority());
        Path output = directory.resolve("output.log");
        ProcessBuilder bash = new ProcessBuilder("bash", "-euo", "pipefail", "-c", recipe)
                .directory(directory.toFile())
                .redirectErrorStream(true)
                .redirectOutput(output.toFile());
        bash.environment().put("SAMPLE_USERS_OPERATOR_PASSWORD", this.server.password("operator"));
        Process process = bash.start();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("the recipe ended").isTrue();
        String printed = Files.readString(output);
        assertThat(process.exitValue()).as(printed).isZero();
        assertThat(printed).contains("\"action\" : \"job.pause\"").contains("\"status\" : \"PENDING\"");
        assertThat(this.server.bean(JobScheduler.class).isPaused(OrderJobs.NIGHTLY_REPORT))
                .isTrue();
    }

    /** The first shell block after a line of text. */
    private static String block(String markdown, String after) {
        int from = markdown.indexOf(after);
        assertThat(from).as("the README's line '%s'", after).isNotNegative();
        int start = markdown.indexOf("```sh\n", from) + "```sh\n".length();
        return markdown.substring(start, markdown.indexOf("```", start));
    }
}
