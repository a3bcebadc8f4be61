package io.dsched.sample.crashlab;

import io.dsched.sample.SampleClient;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import tools.jackson.databind.JsonNode;

/**
 * One node of the sample application in a JVM of its own, started from the repackaged jar with
 * {@code java -jar}. Each start picks a free port and appends the node's output to its log file. Every
 * process still running when the test JVM exits is killed by a shutdown hook, whatever became of the test.
 * The node's users get their passwords from the environment, where no other user of the machine reads
 * them; the node is called as one of them through the dsched endpoint and the orders API.
 */
public final class SampleNode {

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

    private final Map<String, String> passwords;

    private final Path directory;

    private final Map<String, String> environment = new ConcurrentHashMap<>();

    private Process process;

    private int port;

    /** The signed-in viewer of the running JVM, or {@code null} until a read needs one. */
    private volatile SampleClient viewer;

    /**
     * Creates a node that is not started yet.
     * @param nodeId its {@code dsched.node-id}
     * @param log the file its output is appended to
     * @param arguments application arguments besides its port and node id
     * @param passwords the passwords of the users {@code viewer}, {@code operator} and {@code admin}
     */
    SampleNode(String nodeId, Path log, List<String> arguments, Map<String, String> passwords) {
        this(nodeId, log, arguments, passwords, Path.of(""));
    }

    /**
     * Creates a node that is not started yet and runs in a directory of its own, where the sample
     * keeps its default H2 database.
     * @param nodeId its {@code dsched.node-id}
     * @param log the file its output is appended to
     * @param arguments application arguments besides its port and node id
     * @param passwords the passwords of the users {@code viewer}, {@code operator} and {@code admin}
     * @param directory its working directory
     */
    public SampleNode(String nodeId, Path log, List<String> arguments, Map<String, String> passwords, Path directory) {
        this.nodeId = nodeId;
        this.log = log.toAbsolutePath();
        this.arguments = List.copyOf(arguments);
        this.passwords = Map.copyOf(passwords);
        this.directory = directory.toAbsolutePath();
    }

    String nodeId() {
        return this.nodeId;
    }

    /**
     * Sets variables of the environment the node's JVM starts with, from its next start on.
     * @param variables the variables
     */
    void environment(Map<String, String> variables) {
        this.environment.putAll(variables);
    }

    /**
     * Returns the port the node was last started on.
     * @return its HTTP port
     */
    public int port() {
        return this.port;
    }

    /** Starts a JVM of the node on a free port; {@link #isReady()} tells when it serves. */
    public void start() {
        if (!Files.isRegularFile(JAR)) {
            throw new IllegalStateException(JAR.toAbsolutePath() + " is missing: run the ITs with ./mvnw verify");
        }
        this.port = freePort();
        this.viewer = null;
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
        mark("starts " + this.nodeId + " on port " + this.port);
        try {
            ProcessBuilder builder = new ProcessBuilder(command)
                    .directory(this.directory.toFile())
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(this.log.toFile()));
            builder.environment().putAll(this.environment);
            this.passwords.forEach((user, password) ->
                    builder.environment().put("SAMPLE_USERS_" + user.toUpperCase(Locale.ROOT) + "_PASSWORD", password));
            Process started = builder.start();
            processes.add(started);
            started.onExit().thenRun(() -> processes.remove(started));
            this.process = started;
        } catch (IOException ex) {
            throw new UncheckedIOException("Could not start " + this.nodeId, ex);
        }
    }

    /**
     * Appends a line of the lab's own to the node's log, such as which test begins, between the lines
     * its JVM writes there.
     * @param note what the line says
     */
    void mark(String note) {
        try {
            Files.createDirectories(this.log.getParent());
            Files.writeString(
                    this.log,
                    "==== " + Instant.now() + " crashlab " + note + "\n",
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException ex) {
            throw new UncheckedIOException("Could not write to " + this.log, ex);
        }
    }

    /**
     * Whether the node answers HTTP requests; fails at once if its JVM has exited.
     * @return {@code true} once it serves
     */
    public boolean isReady() {
        if (!this.process.isAlive()) {
            throw new IllegalStateException(this.nodeId + " exited with status " + this.process.exitValue()
                    + " before it served; the end of " + this.log + ":\n" + tail());
        }
        try {
            // ready once the application has started, after every life cycle (dsched's engine included);
            // the probe needs no user
            return SampleClient.anonymous(base())
                            .get("/actuator/health/readiness")
                            .status()
                    == 200;
        } catch (UncheckedIOException ex) {
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
     * Sends the node's JVM a signal, as a terminal or {@code kill} does, unless it has exited.
     * @param name the signal's name, such as {@code INT}
     */
    void signal(String name) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + name, String.valueOf(this.process.pid()))
                    .inheritIO()
                    .start();
            // a JVM that has exited already cannot be signalled, and needs no signal
            if ((!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) && this.process.isAlive()) {
                throw new IllegalStateException("kill -" + name + " " + this.process.pid() + " failed");
            }
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while signalling " + this.nodeId, ex);
        }
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
    public void destroy() {
        if (this.process != null && this.process.isAlive()) {
            this.process.destroyForcibly();
            try {
                this.process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Runs a job once now, as the operator, through the dsched endpoint.
     * @param job the job
     * @return the run
     */
    Triggered trigger(String job) {
        JsonNode after = expect(200, as("operator").post("/actuator/dsched/jobs/" + job + "/trigger", "{}"))
                .get("after");
        return new Triggered(
                after.get("executionId").asLong(), after.get("idempotencyKey").asString());
    }

    /**
     * Reads a path of the dsched endpoint, as the viewer.
     * @param path the path under {@code /actuator/dsched}, such as {@code /executions?job=x}
     * @return the answer
     */
    JsonNode read(String path) {
        return expect(200, viewer().get("/actuator/dsched" + path));
    }

    /**
     * Shows a job, as the viewer, through the dsched endpoint.
     * @param job the job
     * @return whether it is paused and its schedule
     */
    Job job(String job) {
        JsonNode shown = expect(200, viewer().get("/actuator/dsched/jobs/" + job + "?size=1"))
                .get("job");
        return new Job(
                shown.get("name").asString(),
                shown.get("paused").asBoolean(),
                shown.get("schedule").asString());
    }

    /**
     * Changes a job's schedule, as the admin, through the dsched endpoint.
     * @param job the job
     * @param cron the new cron, in the node's zone
     * @return the schedule in force after the change
     */
    String reschedule(String job, String cron) {
        String body = "{\"cron\":\"" + cron + "\",\"reason\":\"crash test\"}";
        return expect(200, as("admin").post("/actuator/dsched/jobs/" + job + "/schedule", body))
                .get("after")
                .get("schedule")
                .asString();
    }

    /**
     * Reads the cluster's overview, as the viewer, through the dsched endpoint.
     * @return the overview, with its {@code nodes}
     */
    JsonNode overview() {
        return expect(200, viewer().get("/actuator/dsched"));
    }

    /**
     * Reads the node's dsched health, as the viewer, with its details.
     * @return the health
     */
    JsonNode health() {
        return expect(200, viewer().get("/actuator/health/dsched"));
    }

    /**
     * Returns the time by the node's clock, as its web server dates its answers.
     * @return the {@code Date} of an answer, to the second
     */
    Instant date() {
        SampleClient.Response response = SampleClient.anonymous(base()).get("/actuator/health/readiness");
        return java.time.ZonedDateTime.parse(
                        response.header("Date"), java.time.format.DateTimeFormatter.RFC_1123_DATE_TIME)
                .toInstant();
    }

    /**
     * Reads the node's Prometheus series, as the viewer.
     * @return the scrape
     */
    String prometheus() {
        SampleClient.Response response = viewer().get("/actuator/prometheus");
        if (response.status() != 200) {
            throw new IllegalStateException(this.nodeId + ": " + response);
        }
        return response.body();
    }

    /**
     * Places an order, as the operator.
     * @param amount its amount
     * @return its id
     */
    long placeOrder(String amount) {
        return expect(201, as("operator").post("/orders", "{\"amount\":\"" + amount + "\"}"))
                .get("id")
                .asLong();
    }

    /**
     * Reads an order's state, as the viewer.
     * @param id the order
     * @return its state
     */
    String orderStatus(long id) {
        return expect(200, viewer().get("/orders/" + id)).get("status").asString();
    }

    /**
     * Returns the node's log as it is now.
     * @return its lines, over every start of the node
     */
    List<String> logLines() {
        try {
            return Files.readAllLines(this.log, StandardCharsets.UTF_8);
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * Returns the end of the node's log.
     * @return its last 40 lines
     */
    public String tail() {
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

    private String base() {
        return "http://127.0.0.1:" + this.port;
    }

    /**
     * The viewer, who reads what the tests poll for (every 200 ms while they wait), signed in once
     * a start of the node through the login form: HTTP Basic on every read cost the node, whose
     * passwords are in bcrypt, a tenth of a second of CPU each time, beside the fail-over it is
     * being watched for.
     */
    private SampleClient viewer() {
        SampleClient viewer = this.viewer;
        if (viewer == null) {
            viewer = SampleClient.session(base(), "viewer", this.passwords.get("viewer"));
            this.viewer = viewer;
        }
        return viewer;
    }

    private SampleClient as(String user) {
        return SampleClient.basic(base(), user, this.passwords.get(user));
    }

    private JsonNode expect(int status, SampleClient.Response response) {
        if (response.status() != status) {
            throw new IllegalStateException(this.nodeId + ": " + response);
        }
        return response.json();
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

    /**
     * A run of a job that the endpoint started.
     *
     * @param executionId its attempt's row in {@code dsched_execution}
     * @param idempotencyKey its fire's key
     */
    record Triggered(long executionId, String idempotencyKey) {}

    /**
     * A job as the endpoint shows it.
     *
     * @param name its name
     * @param paused whether it is paused
     * @param schedule its schedule in force, such as {@code cron(0 0 2 * * *, Europe/Berlin)}
     */
    record Job(String name, boolean paused, String schedule) {}
}
