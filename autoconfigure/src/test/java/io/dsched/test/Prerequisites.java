package io.dsched.test;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;
import org.junit.jupiter.api.Assumptions;

/**
 * What a test does when something it needs from the machine (a database server, a browser,
 * promtool, libfaketime) is not there: on a developer's machine it is skipped with the reason,
 * which {@link SkipReport} repeats at the end of the build; in CI ({@code CI=true}) it fails,
 * because a suite that did not run proves nothing.
 */
public final class Prerequisites {

    private Prerequisites() {}

    /**
     * Whether the tests run in CI, where every suite must run.
     * @return {@code true} if the variable {@code CI} is {@code true}
     */
    public static boolean inCi() {
        return "true".equalsIgnoreCase(System.getenv("CI"));
    }

    /**
     * Finds a command on the {@code PATH}, as a shell would.
     * @param command the command's name, such as {@code promtool}
     * @return the first executable of that name, if there is one
     */
    public static Optional<Path> onPath(String command) {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        return Arrays.stream(path.split(File.pathSeparator))
                .filter((directory) -> !directory.isEmpty())
                .map((directory) -> Path.of(directory, command))
                .filter(Files::isExecutable)
                .findFirst();
    }

    /**
     * Goes on if a prerequisite is there; otherwise skips the test, or fails it in CI.
     * @param present whether the prerequisite is there
     * @param reason what is missing and how to get it
     */
    public static void require(boolean present, String reason) {
        if (!present) {
            missing(reason);
        }
    }

    /**
     * Skips the test for want of a prerequisite, or fails it in CI; never returns normally.
     * @param reason what is missing and how to get it
     * @return nothing: declared so that a caller can {@code throw} it to end a branch
     */
    public static AssertionError missing(String reason) {
        if (inCi()) {
            throw new AssertionError(reason + ". In CI (CI=true) a suite may not be skipped for want of it");
        }
        Assumptions.abort(reason);
        throw new IllegalStateException("unreachable: the test was aborted");
    }
}
