package io.dsched.test;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

/**
 * Says loudly what a test JVM skipped and why: a skipped suite must not pass for a green one. At
 * the end of the JVM's tests it prints a banner with each skipped (aborted or disabled) test and
 * its reason (into the last class's log, as surefire redirects the tests' output), and writes the
 * same lines to {@code target/dsched-skipped/}, where the build's last module reads the lines of
 * every module and prints them at the end of {@code ./mvnw verify}.
 * The files of one build carry its start time ({@code dsched.build.id}, set by the build), so that
 * an earlier build's skips are not reported again. Registered for every JVM that has the test
 * support on its class path, through {@code META-INF/services}.
 */
public final class SkipReport implements TestExecutionListener {

    private static final String BAR = "!".repeat(100);

    private final List<String> skipped = new ArrayList<>();

    @Override
    public void executionSkipped(TestIdentifier test, String reason) {
        record(test, reason);
    }

    @Override
    public void executionFinished(TestIdentifier test, TestExecutionResult result) {
        if (result.getStatus() == TestExecutionResult.Status.ABORTED) {
            record(test, result.getThrowable().map(Throwable::getMessage).orElse("aborted, no reason given"));
        }
    }

    @Override
    public synchronized void testPlanExecutionFinished(TestPlan plan) {
        if (this.skipped.isEmpty()) {
            return;
        }
        String module = Path.of(System.getProperty("user.dir")).getFileName().toString();
        PrintStream out = System.out;
        out.println(BAR);
        out.println("SKIPPED in " + module + ": " + this.skipped.size() + " test(s) or suite(s) did not run");
        this.skipped.forEach((line) -> out.println("  " + line));
        out.println(BAR);
        out.flush();
        write(module);
    }

    private synchronized void record(TestIdentifier test, String reason) {
        this.skipped.add(name(test) + ": " + (reason != null ? reason : "no reason given"));
    }

    private static String name(TestIdentifier test) {
        Optional<String> source = test.getSource().map((where) -> {
            if (where instanceof MethodSource method) {
                return simple(method.getClassName()) + "." + method.getMethodName();
            }
            if (where instanceof ClassSource type) {
                return simple(type.getClassName());
            }
            return null;
        });
        return source.orElse(test.getDisplayName());
    }

    private static String simple(String className) {
        return className.substring(className.lastIndexOf('.') + 1);
    }

    private void write(String module) {
        String build = System.getProperty("dsched.build.id", "unknown-build");
        Path file = Path.of("target", "dsched-skipped", build + "-" + UUID.randomUUID() + ".txt");
        List<String> lines =
                this.skipped.stream().map((line) -> module + ": " + line).toList();
        try {
            Files.createDirectories(file.getParent());
            Files.write(file, lines, StandardCharsets.UTF_8);
        } catch (IOException ex) {
            throw new UncheckedIOException("Could not write the list of skipped tests to " + file, ex);
        }
    }
}
