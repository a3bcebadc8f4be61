package io.dsched.sample.crashlab;

import io.dsched.jobs.ScheduledJob;
import io.dsched.sample.jobs.JobView;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.springframework.http.MediaType;
import org.springframework.http.client.JdkClientHttpRequestFactory;
import org.springframework.web.client.HttpServerErrorException;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;

/**
 * One node of the sample application in a JVM of its own, started from the repackaged jar with
 * {@code java -jar}. Each start picks a free port and appends the node's output to its log file. Every
 * process still running when the test JVM exits is killed by a shutdown hook, whatever became of the test.
 */
final class SampleNode {

    /** The zone of the nodes' JVMs: far from UTC, so that a leak of the JVM's zone shows. */
    static final String ZONE = "Pacific/Chatham";

    private static final Path JAR = Path.of("target", "dsched-sample-app.jar");

    private static final Set<Process> processes = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(SampleNode::killAll, "crashlab-kill-nodes"));
    }

    private final String nodeId;

    private final Path log;

    private final List<String> arguments;

    private Process process;

    private int port;

    private RestClient http;

    /**
     * Creates a node that is not started yet.
     * @param nodeId its {@code dsched.node-id}
     * @param log the file its output is appended to
     * @param arguments application arguments besides its port and node id
     */
    SampleNode(String nodeId, Path log, List<String> arguments) {
        this.nodeId = nodeId;
        this.log = log;
        this.arguments = List.copyOf(arguments);
    }

    String nodeId() {
        return this.nodeId;
    }

    /** Starts a JVM of the node on a free port; {@link #isReady()} tells when it serves. */
    void start() {
        if (!Files.isRegularFile(JAR)) {
            throw new IllegalStateException(JAR.toAbsolutePath() + " is missing: run the ITs with ./mvnw verify");
        }
        this.port = freePort();
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx384m",
                "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC",
                "-Duser.timezone=" + ZONE,
                "-jar",
                JAR.toAbsolutePath().toString(),
                "--server.port=" + this.port,
                "--dsched.node-id=" + this.nodeId));
        command.addAll(this.arguments);
        try {
            Files.createDirectories(this.log.getParent());
            Files.writeString(
                    this.log,
                    "==== " + Instant.now() + " crashlab starts " + this.nodeId + " on port " + this.port + "\n",
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
            Process started = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(this.log.toFile()))
                    .start();
            processes.add(started);
            started.onExit().thenRun(() -> processes.remove(started));
            this.process = started;
        } catch (IOException ex) {
            throw new UncheckedIOException("Could not start " + this.nodeId, ex);
        }
        this.http = RestClient.builder()
                .baseUrl("http://localhost:" + this.port)
                .requestFactory(requestFactory())
                .build();
    }

    /**
     * Whether the node answers HTTP requests; fails at once if its JVM has exited.
     * @return {@code true} once it serves
     */
    boolean isReady() {
        if (!this.process.isAlive()) {
            throw new IllegalStateException(this.nodeId + " exited with status " + this.process.exitValue()
                    + " before it served; the end of " + this.log + ":\n" + tail());
        }
        try {
            // ready once the application has started, after every life cycle (dsched's engine included)
            return this.http
                    .get()
                    .uri("/actuator/health/readiness")
                    .retrieve()
                    .toBodilessEntity()
                    .getStatusCode()
                    .is2xxSuccessful();
        } catch (ResourceAccessException | HttpServerErrorException ex) {
            return false;
        }
    }

    boolean isAlive() {
        return this.process != null && this.process.isAlive();
    }

    /**
     * Kills the node's JVM with SIGKILL, as {@code kill -9} does, and waits until it is gone.
     * @return when the signal was sent
     */
    Instant kill() {
        Instant killedAt = Instant.now();
        this.process.destroyForcibly();
        awaitExit(Duration.ofSeconds(10));
        return killedAt;
    }

    /** Asks the node's JVM to stop with SIGTERM, so that it shuts down gracefully. */
    void signalStop() {
        this.process.destroy();
    }

    /**
     * Waits for the JVM to exit; kills it and fails if it does not in time.
     * @param timeout how long to wait
     */
    void awaitExit(Duration timeout) {
        try {
            if (!this.process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                this.process.destroyForcibly();
                throw new AssertionError(this.nodeId + " did not exit within " + timeout + "; killed it");
            }
        } catch (InterruptedException ex) {
            this.process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for " + this.nodeId + " to exit", ex);
        }
    }

    /** Kills the JVM if it still runs; never fails. */
    void destroy() {
        if (this.process != null && this.process.isAlive()) {
            this.process.destroyForcibly();
            try {
                this.process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }
    }

    ScheduledJob trigger(String job) {
        return this.http.post().uri("/jobs/{name}/trigger", job).retrieve().body(ScheduledJob.class);
    }

    JobView job(String job) {
        return this.http.get().uri("/jobs/{name}", job).retrieve().body(JobView.class);
    }

    JobView reschedule(String job, String cron) {
        return this.http
                .put()
                .uri("/jobs/{name}/schedule", job)
                .contentType(MediaType.APPLICATION_JSON)
                .body(Map.of("cron", cron))
                .retrieve()
                .body(JobView.class);
    }

    long placeOrder(String amount) {
        Map<?, ?> order = this.http
                .post()
                .uri("/orders")
                .contentType(MediaType.APPLICATION_JSON)
                .body(Map.of("amount", amount))
                .retrieve()
                .body(Map.class);
        return ((Number) order.get("id")).longValue();
    }

    String orderStatus(long id) {
        return (String) this.http
                .get()
                .uri("/orders/{id}", id)
                .retrieve()
                .body(Map.class)
                .get("status");
    }

    String tail() {
        try {
            List<String> lines = Files.readAllLines(this.log, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException ex) {
            return "(cannot read " + this.log + ": " + ex.getMessage() + ")";
        }
    }

    @Override
    public String toString() {
        return this.nodeId + " (port " + this.port + ", pid " + ((this.process != null) ? this.process.pid() : "-")
                + ")";
    }

    private static JdkClientHttpRequestFactory requestFactory() {
        JdkClientHttpRequestFactory factory = new JdkClientHttpRequestFactory(
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build());
        factory.setReadTimeout(Duration.ofSeconds(10));
        return factory;
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        } catch (IOException ex) {
            throw new UncheckedIOException("No free port", ex);
        }
    }

    private static void killAll() {
        for (Process process : processes) {
            process.destroyForcibly();
        }
    }
}
