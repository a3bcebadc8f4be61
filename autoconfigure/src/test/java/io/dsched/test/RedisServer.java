package io.dsched.test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;

/**
 * A Redis server of the test's own, run as a process (Debian's package {@code redis-server}) on a
 * free port, keeping nothing on disk: a test can stop it and start it again on the same port, and
 * no other test's nodes hear its cluster's notices.
 */
public final class RedisServer implements AutoCloseable {

    private static final Path DEBIAN = Path.of("/usr/bin/redis-server");

    private final Path command;

    private final Path directory;

    private final int port;

    private Process process;

    private RedisServer(Path command, Path directory, int port) {
        this.command = command;
        this.directory = directory;
        this.port = port;
    }

    /**
     * Starts a Redis server, or skips the test (fails it in CI) without one.
     * @return the running server
     * @throws IOException if it cannot be started
     */
    public static RedisServer start() throws IOException {
        Path command = Prerequisites.onPath("redis-server")
                .or(() -> Files.isExecutable(DEBIAN) ? Optional.of(DEBIAN) : Optional.empty())
                .orElseThrow(
                        () -> Prerequisites.missing(
                                "No redis-server: install Debian's package redis-server for the tests of notices through Redis"));
        RedisServer server = new RedisServer(command, Files.createTempDirectory("dsched-redis"), LoopbackPorts.free());
        server.startAgain();
        return server;
    }

    /** The port it listens on, the same after a restart. */
    public int port() {
        return this.port;
    }

    /** Starts the server again, on the same port, after {@link #stop}. */
    public void startAgain() throws IOException {
        this.process = new ProcessBuilder(List.of(
                        this.command.toString(),
                        "--port",
                        Integer.toString(this.port),
                        "--bind",
                        "127.0.0.1",
                        "--save",
                        "",
                        "--appendonly",
                        "no",
                        "--dir",
                        this.directory.toString()))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(
                        this.directory.resolve("redis.log").toFile()))
                .start();
        Process started = this.process;
        Awaitility.await("redis-server listening on " + this.port)
                .atMost(Duration.ofSeconds(10))
                .until(() -> LoopbackPorts.accepts(this.port) || !started.isAlive());
        if (!started.isAlive()) {
            throw new IllegalStateException(
                    "redis-server did not start: " + Files.readString(this.directory.resolve("redis.log")));
        }
    }

    /** Stops the server at once, closing every client's connection. */
    public void stop() {
        Process running = this.process;
        if (running == null) {
            return;
        }
        running.destroyForcibly();
        try {
            running.waitFor(10, TimeUnit.SECONDS);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        this.process = null;
    }

    @Override
    public void close() throws IOException {
        stop();
        try (var files = Files.list(this.directory)) {
            for (Path file : files.toList()) {
                Files.deleteIfExists(file);
            }
        }
        Files.deleteIfExists(this.directory);
    }
}
