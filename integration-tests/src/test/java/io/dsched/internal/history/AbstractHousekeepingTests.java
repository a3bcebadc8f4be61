package io.dsched.internal.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dsched.definition.Schedule;
import io.dsched.execution.ExecutionOrigin;
import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.ExecutionStatus;
import io.dsched.internal.audit.AuditEntry;
import io.dsched.internal.audit.AuditLog;
import io.dsched.internal.cluster.NodeTable;
import io.dsched.internal.engine.DeploymentLock;
import io.dsched.internal.store.ClusterTables;
import io.dsched.internal.store.DatabasePlatform;
import io.dsched.internal.store.DeadLetterRepository;
import io.dsched.internal.store.DeadLetterStatus;
import io.dsched.internal.store.DschedRepositories;
import io.dsched.jobs.JobScheduler;
import io.dsched.jobs.OneOff;
import io.dsched.jobs.RecurringJob;
import io.dsched.test.ClusterNode;
import io.dsched.test.TestCluster;
import io.dsched.test.TestDatabases;
import io.dsched.test.TestRows;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Housekeeping over every table dsched writes: a small cluster writes real rows, the test ages
 * some of them and adds others on both sides of each table's retention, and one run of
 * housekeeping leaves nothing older than its retention but what is still needed, and keeps all
 * that is younger; the lock rows it keeps, however old, still lock. The tables are
 * read from the database's metadata, so that a table added without a rule here fails the test.
 * Run against each database by a small subclass.
 */
abstract class AbstractHousekeepingTests {

    private static final Duration HISTORY = Duration.ofDays(10);

    private static final Duration WAITING = Duration.ofDays(5);

    private static final Duration OPEN_DEAD_LETTERS = Duration.ofDays(20);

    private static final Duration AUDIT = Duration.ofDays(30);

    private static final Duration DEPLOYMENTS = Duration.ofDays(60);

    private static final String FINISHED =
            "'SUCCEEDED', 'FAILED', 'TIMED_OUT', 'SKIPPED', 'DEAD_LETTERED', 'CANCELLED'";

    @RegisterExtension
    final TestCluster cluster = TestCluster.of(this::kind);

    private DatabasePlatform platform;

    private JdbcTemplate sql;

    /** The database's time when the rows were seeded. */
    private Instant now;

    /**
     * Returns the database this suite runs on.
     * @return the kind of database
     */
    protected abstract TestDatabases.Kind kind();

    @BeforeEach
    void holdJobsAndConnect() {
        HousekeepingJobs.release = new CountDownLatch(1);
        this.platform = this.cluster.platform();
        this.sql = new JdbcTemplate(this.cluster.observer());
    }

    @AfterEach
    void releaseJobs() {
        HousekeepingJobs.release.countDown();
    }

    @Test
    void housekeepingLeavesNoRowPastItsRetentionInAnyTableAndKeepsWhatIsYoungerOrStillNeeded() throws Exception {
        ClusterNode one = start("node-1");
        ClusterNode two = start("node-2");
        JobScheduler scheduler = one.bean(JobScheduler.class);

        // real rows: fires with their captured logs, runs by hand, one-offs, a runtime job
        await().atMost(Duration.ofSeconds(20)).until(() -> ticksWithLogs().size() >= 2);
        List<Long> ticks = ticksWithLogs();
        long yearly = scheduler.trigger("yearly").executionId();
        awaitStatus(yearly, ExecutionStatus.SUCCEEDED);
        long hold = scheduler.trigger("hold").executionId();
        awaitStatus(hold, ExecutionStatus.RUNNING);
        long keyOld = scheduler
                .submit(OneOff.of("remind", "old").withKey("k-old").uniqueFor(Duration.ofDays(30)))
                .executionId();
        long keyYoung = scheduler
                .submit(OneOff.of("remind", "young").withKey("k-young").uniqueFor(Duration.ofDays(30)))
                .executionId();
        awaitStatus(keyOld, ExecutionStatus.SUCCEEDED);
        awaitStatus(keyYoung, ExecutionStatus.SUCCEEDED);
        long cancelledOld = scheduler
                .submit(OneOff.of("remind", "never").after(Duration.ofHours(1)))
                .executionId();
        long cancelledYoung = scheduler
                .submit(OneOff.of("remind", "never").after(Duration.ofHours(1)))
                .executionId();
        scheduler.cancel(cancelledOld);
        scheduler.cancel(cancelledYoung);
        awaitStatus(cancelledOld, ExecutionStatus.CANCELLED);
        awaitStatus(cancelledYoung, ExecutionStatus.CANCELLED);
        scheduler.create(
                RecurringJob.of("nightly", "remind", new Schedule.Cron(HousekeepingJobs.NEVER, ZoneOffset.UTC), "n"));
        assertThat(lockNames()).contains("tick", "yearly", "hold", DeploymentLock.NAME);
        assertThat(count("dsched_unique_key WHERE idempotency_key = 'remind:k-old'"))
                .isOne();

        this.now = new NodeTable(this.cluster.observer(), this.platform, ClusterTables.DEFAULT).databaseNow();
        Map<String, Runnable> rules = new LinkedHashMap<>();

        // dsched_execution: finished attempts (cancelled ones too) go after the history's
        // retention; waiting ones are cancelled after the waiting retention; running ones stay
        long tickOld = ticks.get(0);
        long tickYoung = ticks.get(1);
        ageAttempt(tickOld, beyond(HISTORY));
        ageAttempt(tickYoung, within(HISTORY));
        ageAttempt(cancelledOld, beyond(HISTORY));
        ageAttempt(cancelledYoung, within(HISTORY));
        ageAttempt(hold, beyond(HISTORY));
        long ghostRun = this.cluster
                .executions()
                .save(ExecutionRecord.claim("gone", beyond(HISTORY), "gone-running", beyond(HISTORY)))
                .id();
        long staleWait = waiting("gone:stale", beyond(WAITING));
        long recentWait = waiting("gone:recent", within(WAITING));
        rules.put("dsched_execution", () -> {
            assertThat(count("dsched_execution WHERE status IN (" + FINISHED + ") AND started_at < ?", cutoff(HISTORY)))
                    .isZero();
            assertThat(ids("SELECT id FROM dsched_execution"))
                    .doesNotContain(tickOld, cancelledOld)
                    .contains(tickYoung, cancelledYoung, hold, ghostRun, staleWait, recentWait, keyOld, keyYoung);
            assertThat(status(hold)).isEqualTo("RUNNING");
            assertThat(status(ghostRun)).isEqualTo("RUNNING");
            assertThat(status(staleWait)).isEqualTo("CANCELLED");
            assertThat(status(recentWait)).isEqualTo("SCHEDULED");
        });

        // dsched_execution_log: with its attempt, and one whose attempt is gone after the history's retention
        age("dsched_execution_log", "created_at", "execution_id = " + tickOld, beyond(HISTORY));
        age("dsched_execution_log", "created_at", "execution_id = " + tickYoung, within(HISTORY));
        long orphanOld = 900_000_001L;
        long orphanYoung = 900_000_002L;
        log(orphanOld, beyond(HISTORY));
        log(orphanYoung, within(HISTORY));
        rules.put("dsched_execution_log", () -> {
            assertThat(count("dsched_execution_log WHERE created_at < ?", cutoff(HISTORY)))
                    .isZero();
            assertThat(ids("SELECT execution_id FROM dsched_execution_log"))
                    .doesNotContain(tickOld, orphanOld)
                    .contains(tickYoung, orphanYoung);
        });

        // dsched_execution_trace: once its fire has no attempt left and the history's retention passed
        trace("remind:trace-old", beyond(HISTORY));
        trace("gone:recent", beyond(HISTORY));
        trace("remind:trace-young", within(HISTORY));
        rules.put("dsched_execution_trace", () -> {
            assertThat(count(
                            "dsched_execution_trace t WHERE t.created_at < ? AND NOT EXISTS"
                                    + " (SELECT 1 FROM dsched_execution e WHERE e.idempotency_key = t.idempotency_key)",
                            cutoff(HISTORY)))
                    .isZero();
            assertThat(strings("SELECT idempotency_key FROM dsched_execution_trace"))
                    .containsExactlyInAnyOrder("gone:recent", "remind:trace-young");
        });

        // dsched_dead_letter: closed ones after the history's retention, open ones after their own
        DeadLetterRepository letters = new DschedRepositories(this.cluster.observer(), this.platform).deadLetters();
        long replayedOld = letters.save(TestRows.deadLetter(beyond(HISTORY), DeadLetterStatus.REPLAYED))
                .id();
        long discardedYoung = letters.save(TestRows.deadLetter(within(HISTORY), DeadLetterStatus.DISCARDED))
                .id();
        long openOld = letters.save(TestRows.deadLetter(beyond(OPEN_DEAD_LETTERS), DeadLetterStatus.OPEN))
                .id();
        long openYoung = letters.save(TestRows.deadLetter(within(OPEN_DEAD_LETTERS), DeadLetterStatus.OPEN))
                .id();
        rules.put("dsched_dead_letter", () -> {
            assertThat(count("dsched_dead_letter WHERE status <> 'OPEN' AND last_failed_at < ?", cutoff(HISTORY)))
                    .isZero();
            assertThat(count("dsched_dead_letter WHERE last_failed_at < ?", cutoff(OPEN_DEAD_LETTERS)))
                    .isZero();
            assertThat(ids("SELECT id FROM dsched_dead_letter"))
                    .doesNotContain(replayedOld, openOld)
                    .contains(discardedYoung, openYoung);
        });

        // dsched_audit: after the audit's retention
        AuditLog audit = new AuditLog(new DschedRepositories(this.cluster.observer(), this.platform).aggregates());
        audit.record(auditEntry("audit-old", beyond(AUDIT)));
        audit.record(auditEntry("audit-young", within(AUDIT)));
        rules.put("dsched_audit", () -> {
            assertThat(count("dsched_audit WHERE acted_at < ?", cutoff(AUDIT))).isZero();
            assertThat(strings("SELECT target FROM dsched_audit")).containsExactly("audit-young");
        });

        // dsched_unique_key: once its window closed
        age("dsched_unique_key", "expires_at", "idempotency_key = 'remind:k-old'", this.now.minusSeconds(60));
        rules.put("dsched_unique_key", () -> {
            assertThat(count(
                            "dsched_unique_key WHERE expires_at < ?",
                            this.platform.dialect().bindable(this.now)))
                    .isZero();
            assertThat(strings("SELECT idempotency_key FROM dsched_unique_key")).containsExactly("remind:k-young");
        });

        // dsched_cancel_request: once its attempt ended and the history's retention passed
        cancelRequest(cancelledOld, beyond(HISTORY));
        cancelRequest(ghostRun, beyond(HISTORY));
        cancelRequest(tickYoung, within(HISTORY));
        rules.put("dsched_cancel_request", () -> {
            assertThat(count(
                            "dsched_cancel_request r WHERE r.requested_at < ? AND NOT EXISTS (SELECT 1 FROM"
                                    + " dsched_execution e WHERE e.id = r.execution_id AND e.status = 'RUNNING')",
                            cutoff(HISTORY)))
                    .isZero();
            assertThat(ids("SELECT execution_id FROM dsched_cancel_request"))
                    .containsExactlyInAnyOrder(ghostRun, tickYoung);
        });

        // dsched_node and dsched_node_clock: a node unseen for the history's retention, once no
        // attempt runs on it, and its clock with it
        node("gone-old", beyond(HISTORY));
        node("gone-young", within(HISTORY));
        node("gone-running", beyond(HISTORY));
        nodeClock("gone-old", beyond(HISTORY));
        nodeClock("gone-young", within(HISTORY));
        nodeClock("gone-running", beyond(HISTORY));
        nodeClock("never-seen", beyond(HISTORY));
        nodeGroup("gone-old", beyond(HISTORY));
        nodeGroup("gone-young", beyond(HISTORY));
        nodeGroup("never-seen", beyond(HISTORY));
        nodeGroup("left-just-now", within(HISTORY));
        rules.put("dsched_node", () -> {
            assertThat(count(
                            "dsched_node n WHERE n.last_seen < ? AND NOT EXISTS (SELECT 1 FROM dsched_execution e"
                                    + " WHERE e.node_id = n.node_id AND e.status = 'RUNNING')",
                            cutoff(HISTORY)))
                    .isZero();
            assertThat(strings("SELECT node_id FROM dsched_node"))
                    .containsExactlyInAnyOrder("node-1", "node-2", "gone-young", "gone-running");
        });
        rules.put("dsched_node_clock", () -> {
            assertThat(count(
                            "dsched_node_clock c WHERE c.measured_at < ?"
                                    + " AND c.node_id NOT IN (SELECT node_id FROM dsched_node)",
                            cutoff(HISTORY)))
                    .isZero();
            assertThat(strings("SELECT node_id FROM dsched_node_clock"))
                    .containsExactlyInAnyOrder("node-1", "node-2", "gone-young", "gone-running");
        });

        rules.put("dsched_node_group", () -> {
            // a node's groups go with the node: those of a node gone for the retention, here
            assertThat(count(
                            "dsched_node_group g WHERE g.registered_at < ?"
                                    + " AND g.node_id NOT IN (SELECT node_id FROM dsched_node)",
                            cutoff(HISTORY)))
                    .isZero();
            assertThat(strings("SELECT node_id FROM dsched_node_group"))
                    .containsExactlyInAnyOrder("node-1", "node-2", "gone-young", "left-just-now");
        });

        // dsched_deployment, dsched_node_deployment, dsched_job_removal: after the deployment retention
        deployment("dep-old", "left", "x-node", beyond(DEPLOYMENTS).minus(40, ChronoUnit.DAYS), beyond(DEPLOYMENTS));
        deployment("dep-young", "young-job", "x-node", ago(80), within(DEPLOYMENTS));
        deployment("dep-held", "held-job", "x-node", ago(100), beyond(DEPLOYMENTS));
        nodeDeployment("gone-old", "dep-old", beyond(DEPLOYMENTS));
        nodeDeployment("gone-running", "dep-held", beyond(DEPLOYMENTS));
        nodeDeployment("gone-long-ago", "dep-young", within(DEPLOYMENTS));
        age("dsched_node_deployment", "registered_at", "node_id = 'node-1'", beyond(DEPLOYMENTS));
        String newest = this.sql.queryForObject(
                "SELECT deployment_hash FROM dsched_node_deployment WHERE node_id = 'node-1'", String.class);
        age("dsched_deployment", "last_started_at", "deployment_hash = '" + newest + "'", beyond(DEPLOYMENTS));
        removal("removed-old", beyond(DEPLOYMENTS));
        removal("removed-young", within(DEPLOYMENTS));
        rules.put("dsched_deployment", () -> {
            assertThat(strings(
                            "SELECT deployment_hash FROM dsched_deployment WHERE last_started_at < ?"
                                    + " AND deployment_hash NOT IN (SELECT deployment_hash FROM dsched_node_deployment)",
                            cutoff(DEPLOYMENTS)))
                    // the newest of the cluster is kept however old
                    .isSubsetOf(newest);
            assertThat(strings("SELECT deployment_hash FROM dsched_deployment"))
                    .doesNotContain("dep-old", "r1", "r2")
                    .contains(newest, "dep-young", "dep-held", "r3", "i1", "i2", "l");
        });
        rules.put("dsched_node_deployment", () -> {
            assertThat(count(
                            "dsched_node_deployment d WHERE d.registered_at < ?"
                                    + " AND d.node_id NOT IN (SELECT node_id FROM dsched_node)",
                            cutoff(DEPLOYMENTS)))
                    .isZero();
            assertThat(strings("SELECT node_id FROM dsched_node_deployment"))
                    .containsExactlyInAnyOrder("node-1", "node-2", "gone-running", "gone-long-ago");
        });
        rules.put("dsched_job_removal", () -> {
            assertThat(count("dsched_job_removal WHERE removed_at < ?", cutoff(DEPLOYMENTS)))
                    .isZero();
            assertThat(strings("SELECT job_name FROM dsched_job_removal"))
                    .containsExactlyInAnyOrder("removed-young", "removed-recently");
        });

        // dsched_job_definition: after the deployment retention, of a job no deployment declares,
        // and a replaced one that no deployment still recorded can run
        seedDefinitions();
        age("dsched_job_definition", "created_at", "job_name = 'tick'", beyond(DEPLOYMENTS));
        rules.put("dsched_job_definition", () -> {
            List<String> jobsDeclared = strings("SELECT job_names FROM dsched_deployment").stream()
                    .flatMap((names) -> List.of(names.split("\n")).stream())
                    .toList();
            assertThat(strings("SELECT job_name FROM dsched_job_definition WHERE created_at < ?", cutoff(DEPLOYMENTS)))
                    .allSatisfy((job) -> assertThat(jobsDeclared).contains(job));
            assertThat(strings("SELECT CONCAT(job_name, '/', definition_hash) FROM dsched_job_definition"
                            + " WHERE job_name IN ('report', 'invoice', 'legacy', 'left', 'left-young')"))
                    .containsExactlyInAnyOrder(
                            "report/h3", "invoice/g1", "invoice/g2", "legacy/k1", "legacy/k2", "left-young/z2");
            assertThat(strings("SELECT job_name FROM dsched_job_definition WHERE status = 'CURRENT'"))
                    .contains("tick", "yearly", "hold", Housekeeping.JOB_NAME);
        });

        // dsched_job: a runtime job is the application's, kept until it is deleted
        age("dsched_job", "created_at", "name = 'nightly'", ago(400));
        age("dsched_job", "updated_at", "name = 'nightly'", ago(400));
        rules.put("dsched_job", () -> assertThat(strings("SELECT name FROM dsched_job"))
                .containsExactly("nightly"));

        // dsched_job_shards: shards an admin set are kept however old, until taken back
        this.sql.update(
                "INSERT INTO dsched_job_shards (job_name, shard_count, shard_params, set_by, set_at) VALUES"
                        + " ('nightly', 4, NULL, 'admin', ?)",
                this.platform.dialect().bindable(ago(400)));
        rules.put("dsched_job_shards", () -> assertThat(strings("SELECT job_name FROM dsched_job_shards"))
                .containsExactly("nightly"));

        // dsched_limit: a concurrency limit's row is kept however old: one per limited handler, and a
        // row deleted while nodes claim under its lock would let two of them fill the same slot
        this.sql.update(
                "INSERT INTO dsched_limit (name, max_concurrent, rate_permits, rate_period_ms, tokens, refilled_at,"
                        + " created_at) VALUES ('old-limit', 3, 0, 0, 0, ?, ?)",
                this.platform.dialect().bindable(ago(400)),
                this.platform.dialect().bindable(ago(400)));
        rules.put("dsched_limit", () -> assertThat(strings("SELECT name FROM dsched_limit"))
                .containsExactly("old-limit"));

        // dsched_limit_key: a key's bucket is the claims' to delete, once full again, under the lock
        // of its handler's row; housekeeping leaves it, however old
        this.sql.update(
                "INSERT INTO dsched_limit_key (name, limit_key, tokens, refilled_at) VALUES ('old-limit', 't-1', 0, ?)",
                this.platform.dialect().bindable(ago(400)));
        rules.put("dsched_limit_key", () -> assertThat(strings("SELECT limit_key FROM dsched_limit_key"))
                .containsExactly("t-1"));

        // dsched_lock: the row of a job removed from the cluster, free for the history's retention;
        // the rows of jobs still declared, and an application's own, stay however long free
        LocalDateTime lockNow = this.sql.queryForObject(
                "SELECT " + this.platform.dialect().lockClockSql() + " AS lock_now",
                (row, number) -> row.getObject("lock_now", LocalDateTime.class));
        ageLock("yearly", lockNow.minus(beyondAge(HISTORY)));
        ageLock(DeploymentLock.NAME, lockNow.minus(beyondAge(HISTORY)));
        String lock = "INSERT INTO dsched_lock (name, lock_until, locked_at, locked_by) VALUES (?, ?, ?, 'x')";
        for (String name : List.of("removed-old", "removed-young", "app-report")) {
            this.sql.update(lock, name, lockNow.minus(beyondAge(HISTORY)), lockNow.minus(beyondAge(HISTORY)));
        }
        this.sql.update(lock, "removed-recently", lockNow.minus(withinAge(HISTORY)), lockNow.minus(withinAge(HISTORY)));
        removal("removed-recently", within(DEPLOYMENTS));
        rules.put("dsched_lock", () -> {
            assertThat(lockNames())
                    .doesNotContain("removed-old", "removed-young")
                    // hold's run holds its lock
                    .contains("tick", "hold", "yearly", DeploymentLock.NAME, "app-report", "removed-recently");
            assertThat(strings("SELECT name FROM dsched_lock WHERE lock_until < ?", lockNow.minus(HISTORY)))
                    .containsExactlyInAnyOrder("yearly", DeploymentLock.NAME, "app-report");
        });

        Set<String> tables = dschedTables();
        assertThat(tables).contains("dsched_execution", "dsched_lock");
        assertThat(tables).as("tables dsched writes with no rule in this test").isSubsetOf(rules.keySet());
        assertThat(rules.keySet()).as("rules of tables the database has not").isSubsetOf(tables);

        Housekeeping housekeeping = one.bean(Housekeeping.class);
        assertThat(housekeeping.purge()).isPositive();

        rules.forEach((table, rule) -> {
            try {
                rule.run();
            } catch (AssertionError ex) {
                throw new AssertionError(table + ": " + ex.getMessage(), ex);
            }
        });

        // the rows kept still lock: each node takes the deployment lock, and yearly runs again
        for (ClusterNode node : List.of(one, two)) {
            await().alias(node.id() + " takes the deployment lock")
                    .atMost(Duration.ofSeconds(10))
                    .until(() ->
                            node.bean(DeploymentLock.class).ifFree(node::id).isPresent());
        }
        long yearlyAgain = two.bean(JobScheduler.class).trigger("yearly").executionId();
        awaitStatus(yearlyAgain, ExecutionStatus.SUCCEEDED);
        // one run did it all
        assertThat(housekeeping.purge()).isZero();
    }

    private void seedDefinitions() {
        // report: three definitions, the first two brought by deployments forgotten; both go
        deployment("r1", "report", "r1-node", ago(200), ago(100));
        definition("report", "h1", "SUPERSEDED", "r1-node", ago(200).plusSeconds(1));
        deployment("r2", "report", "r2-node", ago(150), ago(150));
        definition("report", "h2", "SUPERSEDED", "r2-node", ago(150).plusSeconds(1));
        deployment("r3", "report", "r3-node", ago(90), ago(1));
        definition("report", "h3", "CURRENT", "r3-node", ago(90).plusSeconds(1));
        // invoice: the deployment of the replaced definition still starts nodes; it stays
        deployment("i1", "invoice", "i1-node", ago(210), ago(10));
        definition("invoice", "g1", "SUPERSEDED", "i1-node", ago(210).plusSeconds(1));
        deployment("i2", "invoice", "i2-node", ago(110), ago(1));
        definition("invoice", "g2", "CURRENT", "i2-node", ago(110).plusSeconds(1));
        // legacy: one deployment by its job names alone, for builds of both definitions; both stay
        deployment("l", "legacy", "l-node", ago(300), ago(1));
        definition("legacy", "k1", "SUPERSEDED", "x-node", ago(250));
        definition("legacy", "k2", "CURRENT", "y-node", ago(220));
        // left: declared only by a deployment forgotten in the same run; left-young by none, but young
        definition("left", "z1", "CURRENT", "x-node", beyond(DEPLOYMENTS));
        definition("left-young", "z2", "CURRENT", "x-node", within(DEPLOYMENTS));
    }

    private ClusterNode start(String id) {
        Map<String, Object> properties = new LinkedHashMap<>();
        // the default name, whose tables are named dsched_...
        properties.put("dsched.cluster.name", "dsched");
        properties.put("dsched.history.retention", "10d");
        properties.put("dsched.history.waiting-retention", "5d");
        properties.put("dsched.history.open-dead-letter-retention", "20d");
        properties.put("dsched.management.audit-retention", "30d");
        properties.put("dsched.jobs.deployment-retention", "60d");
        // the test runs housekeeping itself
        properties.put("dsched.history.cleanup-cron", HousekeepingJobs.NEVER);
        // no node judges the others' liveness while the test runs: the rows of nodes gone are the test's
        properties.put("dsched.recovery.node-timeout", "5m");
        properties.put("dsched.shutdown.timeout", "2s");
        // nothing but the test and housekeeping takes the deployment lock once the nodes run
        properties.put("dsched.jobs.remove-undeclared", "false");
        return this.cluster.start(id, HousekeepingJobs.class, properties);
    }

    private Set<String> dschedTables() throws SQLException {
        Set<String> names = new TreeSet<>();
        try (Connection connection = this.cluster.observer().getConnection();
                ResultSet tables = connection
                        .getMetaData()
                        .getTables(connection.getCatalog(), connection.getSchema(), "%", new String[] {"TABLE"})) {
            while (tables.next()) {
                String name = tables.getString("TABLE_NAME").toLowerCase(Locale.ROOT);
                if (name.startsWith("dsched_") && !name.startsWith("dsched_qrtz_")) {
                    names.add(name);
                }
            }
        }
        return names;
    }

    private List<Long> ticksWithLogs() {
        return ids("SELECT e.id FROM dsched_execution e JOIN dsched_execution_log l ON l.execution_id = e.id"
                + " WHERE e.job_name = 'tick' AND e.status = 'SUCCEEDED' ORDER BY e.id");
    }

    private void awaitStatus(long id, ExecutionStatus status) {
        await().atMost(Duration.ofSeconds(20)).until(() -> status.name().equals(status(id)));
    }

    private String status(long id) {
        return strings("SELECT status FROM dsched_execution WHERE id = ?", id).stream()
                .findFirst()
                .orElse(null);
    }

    private Instant ago(int days) {
        return this.now.minus(days, ChronoUnit.DAYS);
    }

    /** A day more than a retention ago. */
    private Instant beyond(Duration retention) {
        return this.now.minus(beyondAge(retention));
    }

    /** A day less than a retention ago. */
    private Instant within(Duration retention) {
        return this.now.minus(withinAge(retention));
    }

    private static Duration beyondAge(Duration retention) {
        return retention.plusDays(1);
    }

    private static Duration withinAge(Duration retention) {
        return retention.minusDays(1);
    }

    private Object cutoff(Duration retention) {
        return this.platform.dialect().bindable(this.now.minus(retention));
    }

    private void age(String table, String column, String where, Instant at) {
        int updated = this.sql.update(
                "UPDATE " + table + " SET " + column + " = ? WHERE " + where,
                this.platform.dialect().bindable(at));
        assertThat(updated).as("rows of %s where %s", table, where).isPositive();
    }

    private void ageAttempt(long id, Instant at) {
        Object time = this.platform.dialect().bindable(at);
        this.sql.update(
                "UPDATE dsched_execution SET scheduled_at = ?, started_at = ?,"
                        + " finished_at = CASE WHEN finished_at IS NULL THEN NULL ELSE ? END WHERE id = ?",
                time,
                time,
                time,
                id);
    }

    private void ageLock(String name, LocalDateTime at) {
        int updated =
                this.sql.update("UPDATE dsched_lock SET lock_until = ?, locked_at = ? WHERE name = ?", at, at, name);
        assertThat(updated).as("lock %s", name).isOne();
    }

    private long waiting(String key, Instant dueAt) {
        return this.cluster
                .executions()
                .save(ExecutionRecord.waiting(
                        "gone", dueAt, 1, key, ExecutionOrigin.ONE_OFF, "gone-old", dueAt, dueAt, null, null))
                .id();
    }

    private void log(long executionId, Instant at) {
        this.sql.update(
                "INSERT INTO dsched_execution_log (execution_id, job_name, log_lines, stack_trace, truncated,"
                        + " created_at) VALUES (?, 'gone', 'a line', NULL, ?, ?)",
                executionId,
                false,
                this.platform.dialect().bindable(at));
    }

    private void trace(String key, Instant at) {
        this.sql.update(
                "INSERT INTO dsched_execution_trace (idempotency_key, carrier, created_at) VALUES (?, '{}', ?)",
                key,
                this.platform.dialect().bindable(at));
    }

    private void cancelRequest(long executionId, Instant at) {
        this.sql.update(
                "INSERT INTO dsched_cancel_request (execution_id, requested_at, requested_by) VALUES (?, ?, 'ops')",
                executionId,
                this.platform.dialect().bindable(at));
    }

    private void node(String id, Instant lastSeen) {
        this.sql.update(
                "INSERT INTO dsched_node (node_id, started_at, last_seen) VALUES (?, ?, ?)",
                id,
                this.platform.dialect().bindable(lastSeen.minus(1, ChronoUnit.DAYS)),
                this.platform.dialect().bindable(lastSeen));
    }

    private void nodeGroup(String id, Instant registeredAt) {
        this.sql.update(
                "INSERT INTO dsched_node_group (node_id, group_name, registered_at) VALUES (?, 'reports', ?)",
                id,
                this.platform.dialect().bindable(registeredAt));
    }

    private void nodeClock(String id, Instant measuredAt) {
        this.sql.update(
                "INSERT INTO dsched_node_clock (node_id, offset_ms, measured_at) VALUES (?, 0, ?)",
                id,
                this.platform.dialect().bindable(measuredAt));
    }

    private void deployment(String hash, String jobs, String nodeId, Instant firstSeen, Instant lastStarted) {
        this.sql.update(
                "INSERT INTO dsched_deployment (cluster_name, deployment_hash, job_names, node_id, first_seen_at,"
                        + " last_started_at) VALUES ('dsched', ?, ?, ?, ?, ?)",
                hash,
                jobs,
                nodeId,
                this.platform.dialect().bindable(firstSeen),
                this.platform.dialect().bindable(lastStarted));
    }

    private void nodeDeployment(String nodeId, String hash, Instant registeredAt) {
        this.sql.update(
                "INSERT INTO dsched_node_deployment (cluster_name, node_id, deployment_hash, registered_at)"
                        + " VALUES ('dsched', ?, ?, ?)",
                nodeId,
                hash,
                this.platform.dialect().bindable(registeredAt));
    }

    private void removal(String job, Instant at) {
        this.sql.update(
                "INSERT INTO dsched_job_removal (cluster_name, job_name, removed_at) VALUES ('dsched', ?, ?)",
                job,
                this.platform.dialect().bindable(at));
    }

    private void definition(String job, String hash, String status, String nodeId, Instant since) {
        this.sql.update(
                "INSERT INTO dsched_job_definition (job_name, definition_hash, schedule, status, node_id, created_at)"
                        + " VALUES (?, ?, 'cron 0 0 * * * *', ?, ?, ?)",
                job,
                hash,
                status,
                nodeId,
                this.platform.dialect().bindable(since));
    }

    private static AuditEntry auditEntry(String target, Instant at) {
        return new AuditEntry(null, at, "ops", "job.pause", target, null, null, null, null, 200, null, "node-1");
    }

    private List<String> lockNames() {
        return strings("SELECT name FROM dsched_lock");
    }

    private long count(String from, Object... arguments) {
        return this.sql.queryForObject("SELECT COUNT(*) FROM " + from, Long.class, arguments);
    }

    private List<Long> ids(String query, Object... arguments) {
        return this.sql.queryForList(query, Long.class, arguments);
    }

    private List<String> strings(String query, Object... arguments) {
        return this.sql.queryForList(query, String.class, arguments);
    }
}
