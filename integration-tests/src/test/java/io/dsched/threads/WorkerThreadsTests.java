package io.dsched.threads;

import static org.assertj.core.api.Assertions.assertThat;

import io.dsched.test.Prerequisites;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Spring Boot's convention for virtual threads: with {@code spring.threads.virtual.enabled} on
 * Java 21 and later, a node runs its fires and its one-offs on virtual threads; on Java 17 the
 * setting has no effect and they run on platform threads. Each case runs {@link WorkerThreadsProbe}
 * in a JVM of its own: on the JDK that runs the tests, and on a JDK 21 or later that is either this
 * one, the one {@code DSCHED_TEST_JAVA21_HOME} names, or one installed beside this one (as
 * {@code /usr/lib/jvm} holds several).
 */
class WorkerThreadsTests {

    @Test
    void withSpringsSettingOnJava21AndLaterFiresAndOneOffsRunOnVirtualThreads() throws Exception {
        Path java = java21().orElseThrow(() -> Prerequisites.missing("No JDK 21 or later: set DSCHED_TEST_JAVA21_HOME"
                + " to one, or install one beside the JDK that runs the build"));

        Map<String, String> ran = probe(java, true);

        assertThat(ran).containsOnlyKeys("fire", "one-off");
        assertThat(ran.get("fire")).startsWith("virtual=true dsched-worker-");
        assertThat(ran.get("one-off")).startsWith("virtual=true dsched-queue-");
    }

    @Test
    void withoutItOrOnAJavaOlderThan21TheyRunOnPlatformThreads() throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        boolean older = Runtime.version().feature() < 21;
        // on Java 17 the setting is asked for and has no effect; on a later JDK it is not asked for
        Map<String, String> ran = probe(java, older);

        assertThat(ran).containsOnlyKeys("fire", "one-off");
        assertThat(ran.get("fire")).startsWith("virtual=false dsched-worker-");
        assertThat(ran.get("one-off")).startsWith("virtual=false dsched-queue-");
    }

    /** Runs the probe on a JVM; returns on what kind of thread each job ran, by job. */
    private static Map<String, String> probe(Path java, boolean virtual) throws Exception {
        Path output = Files.createTempFile("dsched-worker-threads", ".log");
        try {
            Process process = new ProcessBuilder(
                            java.toString(),
                            "-cp",
                            System.getProperty("java.class.path"),
                            "-XX:TieredStopAtLevel=1",
                            WorkerThreadsProbe.class.getName(),
                            String.valueOf(virtual))
                    .redirectErrorStream(true)
                    .redirectOutput(output.toFile())
                    .start();
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
            List<String> lines = Files.readAllLines(output, StandardCharsets.UTF_8);
            assertThat(process.exitValue()).as(String.join("\n", lines)).isZero();
            return lines.stream()
                    .filter((line) -> line.startsWith(WorkerThreadsProbe.RAN))
                    .map((line) ->
                            line.substring(WorkerThreadsProbe.RAN.length()).split(" on ", 2))
                    .collect(Collectors.toMap((parts) -> parts[0], (parts) -> parts[1]));
        } finally {
            Files.deleteIfExists(output);
        }
    }

    /** A JDK 21 or later's {@code java}: this one, the one the variable names, or one beside it. */
    private static Optional<Path> java21() throws IOException {
        if (Runtime.version().feature() >= 21) {
            return Optional.of(Path.of(System.getProperty("java.home"), "bin", "java"));
        }
        List<Path> homes = new ArrayList<>();
        String named = System.getenv("DSCHED_TEST_JAVA21_HOME");
        if (named != null && !named.isBlank()) {
            homes.add(Path.of(named));
        }
        Path beside = Path.of(System.getProperty("java.home")).toRealPath().getParent();
        if (beside != null) {
            try (Stream<Path> jdks = Files.list(beside)) {
                jdks.sorted(Comparator.reverseOrder()).forEach(homes::add);
            }
        }
        return homes.stream()
                .filter((home) -> feature(home) >= 21)
                .map((home) -> home.resolve("bin").resolve("java"))
                .filter(Files::isExecutable)
                .findFirst();
    }

    /** The feature release a JDK's {@code release} file gives, such as 25; 0 if it gives none. */
    private static int feature(Path home) {
        try (Stream<String> release = Files.lines(home.resolve("release"))) {
            return release.filter((line) -> line.startsWith("JAVA_VERSION="))
                    .map((line) -> line.substring("JAVA_VERSION=".length()).replace("\"", ""))
                    .map((version) -> Integer.parseInt(version.split("[.+-]")[0]))
                    .findFirst()
                    .orElse(0);
        } catch (IOException | RuntimeException ex) {
            return 0;
        }
    }
}
