package io.dsched.sample.crashlab;

import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import io.dsched.execution.ExecutionRecord;
import io.dsched.internal.store.DatabasePlatform;
import io.dsched.internal.store.DschedRepositories;
import io.dsched.internal.store.ExecutionRepository;
import io.dsched.test.TestDatabase;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;
import org.springframework.jdbc.core.simple.JdbcClient;

/**
 * A cluster of {@link SampleNode}s over one fresh database, with passwords of the sample's users made
 * up for the lab, and the view of that database the tests assert on. A node the tests killed or stopped
 * can be started again under its id ({@link #notAlive()} tells which are down), so that one lab may
 * serve several tests in turn. Closing it kills every node and drops the database.
 */
final class CrashLab implements AutoCloseable {

    private static final Duration STARTUP = Duration.ofSeconds(90);

    private final TestDatabase database;

    private final HikariDataSource dataSource;

    private final ExecutionRepository executions;

    private final JdbcClient jdbc;

    private final List<String> arguments;

    private final Map<String, String> passwords = new HashMap<>();

    private final Path logs;

    private final List<SampleNode> nodes = new ArrayList<>();

    /**
     * Creates the lab.
     * @param database the database, dropped when the lab is closed
     * @param profile the Spring profile of that database, such as {@code postgres}
     * @param logs the directory of the nodes' logs
     */
    CrashLab(TestDatabase database, String profile, Path logs) {
        this.database = database;
        this.dataSource = new HikariDataSource();
        this.dataSource.setJdbcUrl(database.url());
        this.dataSource.setUsername(database.username());
        this.dataSource.setPassword(database.password());
        this.dataSource.setMaximumPoolSize(2);
        this.executions =
                new DschedRepositories(this.dataSource, DatabasePlatform.detect(this.dataSource)).executions();
        this.jdbc = JdbcClient.create(this.dataSource);
        this.logs = logs;
        this.arguments = List.of(
                "--spring.profiles.active=" + profile + ",crashlab",
                "--spring.datasource.url=" + database.url(),
                "--spring.datasource.username=" + database.username(),
                "--spring.datasource.password=" + ((database.password() != null) ? database.password() : ""));
        for (String user : new String[] {"viewer", "operator", "admin"}) {
            this.passwords.put(user, UUID.randomUUID().toString());
        }
    }

    /**
     * Starts nodes {@code node-1} to {@code node-<count>} and waits until all serve: the first one alone,
     * for it creates the tables, then the others at once.
     * @param count how many
     * @return the nodes
     */
    List<SampleNode> start(int count) {
        return start(count, Map.of());
    }

    /**
     * Starts nodes {@code node-1} to {@code node-<count>}, some with variables of their own in their
     * environment, and waits until all serve.
     * @param count how many
     * @param environments the variables of a node's environment, by node id
     * @return the nodes
     */
    List<SampleNode> start(int count, Map<String, Map<String, String>> environments) {
        List<SampleNode> started = IntStream.rangeClosed(1, count)
                .mapToObj((n) -> new SampleNode(
                        "node-" + n, this.logs.resolve("node-" + n + ".log"), this.arguments, this.passwords))
                .toList();
        started.forEach((node) -> node.environment(environments.getOrDefault(node.nodeId(), Map.of())));
        this.nodes.addAll(started);
        // dsched's schema initializer does not serialise its CREATE ... IF NOT EXISTS statements: nodes
        // creating the tables of an empty PostgreSQL schema at once fail on pg_type's unique index
        restart(started.subList(0, 1));
        restart(started.subList(1, count));
        return started;
    }

    /**
     * Starts stopped nodes again, at once, and waits until all serve.
     * @param nodes the nodes
     */
    void restart(List<SampleNode> nodes) {
        nodes.forEach(SampleNode::start);
        for (SampleNode node : nodes) {
            await(node + " to serve")
                    .atMost(STARTUP)
                    .pollInterval(Duration.ofMillis(250))
                    .until(node::isReady);
        }
    }

    /**
     * Stops nodes gracefully, at once, and waits until each has exited.
     * @param nodes the nodes
     */
    void stop(List<SampleNode> nodes) {
        nodes.forEach(SampleNode::signalStop);
        nodes.forEach((node) -> node.awaitExit(Duration.ofSeconds(30)));
    }

    /**
     * Returns the nodes whose JVM is not running: killed, stopped, or exited on its own.
     * @return those of the nodes started so far, in the order they were started
     */
    List<SampleNode> notAlive() {
        return this.nodes.stream().filter((node) -> !node.isAlive()).toList();
    }

    SampleNode node(String nodeId) {
        return this.nodes.stream()
                .filter((node) -> node.nodeId().equals(nodeId))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("No node " + nodeId + " in " + this.nodes));
    }

    ExecutionRecord execution(long id) {
        return this.executions.findById(id).orElseThrow();
    }

    /**
     * Returns every attempt at a fire or one-off job.
     * @param idempotencyKey its key
     * @return its attempts, first first
     */
    List<ExecutionRecord> attempts(String idempotencyKey) {
        return this.executions.findByIdempotencyKey(idempotencyKey);
    }

    List<ExecutionRecord> executionsOf(String job) {
        return this.executions.findByJobName(job);
    }

    /**
     * Returns the completed runs the crashlab jobs recorded for a fire.
     * @param idempotencyKey the fire's key
     * @return one entry per completed run
     */
    List<Run> runs(String idempotencyKey) {
        return this.jdbc
                .sql("SELECT attempt, execution_id, node_id FROM crashlab_run WHERE idempotency_key = :key")
                .param("key", idempotencyKey)
                .query((rs, row) -> new Run(rs.getInt("attempt"), rs.getLong("execution_id"), rs.getString("node_id")))
                .list();
    }

    /**
     * Returns the ticker's completed runs, scheduled time first.
     * @return one entry per completed run
     */
    List<Tick> ticks() {
        return this.jdbc
                .sql("SELECT scheduled_ms, ran_ms, node_id FROM crashlab_run WHERE job_name = :job"
                        + " ORDER BY scheduled_ms")
                .param("job", CrashLabJobs.TICKER)
                .query((rs, row) -> new Tick(rs.getLong("scheduled_ms"), rs.getLong("ran_ms"), rs.getString("node_id")))
                .list();
    }

    /**
     * Returns the nodes that have a row in {@code dsched_node}.
     * @return their ids
     */
    List<String> registeredNodes() {
        return this.jdbc
                .sql("SELECT node_id FROM dsched_node")
                .query(String.class)
                .list();
    }

    String orderStatus(long id) {
        return this.jdbc
                .sql("SELECT status FROM sample_order WHERE id = :id")
                .param("id", id)
                .query(String.class)
                .single();
    }

    @Override
    public void close() {
        this.nodes.forEach(SampleNode::destroy);
        this.dataSource.close();
        this.database.close();
    }

    /**
     * A completed run of a crashlab job.
     *
     * @param attempt the attempt that completed
     * @param executionId its row in {@code dsched_execution}
     * @param nodeId the node it ran on
     */
    record Run(int attempt, long executionId, String nodeId) {}

    /**
     * A completed run of the ticker.
     *
     * @param scheduledMs its fire's scheduled time, in epoch milliseconds
     * @param ranMs the database's time when it started, in epoch milliseconds
     * @param nodeId the node it ran on
     */
    record Tick(long scheduledMs, long ranMs, String nodeId) {}
}
