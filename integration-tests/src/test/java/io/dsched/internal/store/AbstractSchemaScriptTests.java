package io.dsched.internal.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import io.dsched.autoconfigure.DschedJdbc;
import io.dsched.autoconfigure.DschedSchemaInitializer;
import io.dsched.execution.ExecutionOrigin;
import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.ExecutionStatus;
import io.dsched.internal.audit.AuditEntry;
import io.dsched.internal.audit.AuditLog;
import io.dsched.internal.history.Housekeeping;
import io.dsched.internal.history.Retention;
import io.dsched.internal.logs.ExecutionLog;
import io.dsched.internal.logs.ExecutionLogs;
import io.dsched.quartz.StartBacklog;
import io.dsched.test.TestDatabase;
import io.dsched.test.TestDatabases;
import io.dsched.test.TestRows;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.core.io.DefaultResourceLoader;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The schema script of each database creates every table, can be applied again at any time, and
 * never drops a table or a row.
 */
abstract class AbstractSchemaScriptTests {

    private TestDatabase database;

    private HikariDataSource dataSource;

    protected abstract TestDatabases.Kind kind();

    @BeforeEach
    void createDatabase() {
        this.database = TestDatabases.create(kind());
        this.dataSource = this.database.newDataSource();
    }

    @AfterEach
    void dropDatabase() {
        if (this.dataSource != null) {
            this.dataSource.close();
        }
        if (this.database != null) {
            this.database.close();
        }
    }

    @Test
    void applyingTheScriptAgainKeepsEveryTableAndRow() {
        DschedJdbc jdbc = new DschedJdbc(this.dataSource, DatabasePlatform.detect(this.dataSource));
        assertThat(new DschedSchemaInitializer(jdbc, DatabaseInitializationMode.ALWAYS).initializeDatabase())
                .isTrue();
        ExecutionRepository executions = new DschedRepositories(this.dataSource, jdbc.platform()).executions();
        Instant scheduledAt = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        ExecutionRecord saved =
                executions.save(ExecutionRecord.claim("kept", scheduledAt, "node-1", scheduledAt.plusMillis(5)));

        assertThat(new DschedSchemaInitializer(jdbc, DatabaseInitializationMode.ALWAYS).initializeDatabase())
                .isTrue();

        assertThat(executions.findById(saved.id())).hasValueSatisfying((row) -> {
            assertThat(row.jobName()).isEqualTo("kept");
            assertThat(row.scheduledAt()).isEqualTo(scheduledAt);
            assertThat(row.startedAt()).isEqualTo(scheduledAt.plusMillis(5));
            assertThat(row.status()).isEqualTo(ExecutionStatus.RUNNING);
        });
        JdbcTemplate sql = new JdbcTemplate(this.dataSource);
        for (String table : new String[] {
            "DSCHED_QRTZ_JOB_DETAILS",
            "DSCHED_QRTZ_TRIGGERS",
            "DSCHED_QRTZ_SIMPROP_TRIGGERS",
            "DSCHED_QRTZ_FIRED_TRIGGERS",
            "DSCHED_QRTZ_SCHEDULER_STATE",
            "DSCHED_QRTZ_LOCKS",
            "dsched_lock",
            "dsched_execution",
            "dsched_job_definition",
            "dsched_deployment",
            "dsched_node_deployment",
            "dsched_job_removal",
            "dsched_unique_key",
            "dsched_dead_letter",
            "dsched_node",
            "dsched_node_clock",
            "dsched_node_group",
            "dsched_limit",
            "dsched_limit_key",
            "dsched_job",
            "dsched_job_shards",
            "dsched_execution_log",
            "dsched_audit",
            "dsched_execution_trace",
            "dsched_cancel_request"
        }) {
            assertThat(sql.queryForObject("SELECT COUNT(*) FROM " + table, Long.class))
                    .as(table)
                    .isNotNull();
        }
    }

    @Test
    void everyStatementOfTheScriptCreatesOnlyWhatIsMissing() throws Exception {
        String location = DatabasePlatform.detect(this.dataSource).schemaLocation();
        String script;
        try (var in = new DefaultResourceLoader().getResource(location).getInputStream()) {
            script = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        List<String> statements = Arrays.stream(
                        script.replaceAll("--[^\n]*", "").split(";"))
                .map((statement) -> statement.strip().replaceAll("\\s+", " "))
                .filter((statement) -> !statement.isEmpty())
                .toList();
        assertThat(statements).hasSizeGreaterThan(20).allSatisfy((statement) -> assertThat(statement)
                .as(location)
                .matches("(?is)CREATE (TABLE|INDEX|UNIQUE INDEX) IF NOT EXISTS .*"));
    }

    private static final Retention RETENTION =
            new Retention(Duration.ofDays(14), Duration.ofDays(14), Duration.ofDays(90), Duration.ofDays(365));

    static ExecutionStore store(DschedJdbc jdbc) {
        DschedRepositories repositories = new DschedRepositories(jdbc.dataSource(), jdbc.platform());
        return new ExecutionStore(
                repositories.executions(),
                repositories.deadLetters(),
                jdbc.transactions(),
                jdbc.dataSource(),
                jdbc.platform(),
                ClusterTables.DEFAULT,
                true,
                StartBacklog.NONE);
    }

    @Test
    void aSecondClaimOfTheSameAttemptIsRefusedByTheDatabase() {
        DschedJdbc jdbc = new DschedJdbc(this.dataSource, DatabasePlatform.detect(this.dataSource));
        new DschedSchemaInitializer(jdbc, DatabaseInitializationMode.ALWAYS).initializeDatabase();
        ExecutionStore store = store(jdbc);
        Instant scheduledAt = Instant.parse("2026-01-01T00:00:00Z");

        assertThat(store.inserts().claim(ExecutionRecord.claim("job", scheduledAt, "node-1", Instant.now())))
                .isPresent();
        assertThat(store.inserts().claim(ExecutionRecord.claim("job", scheduledAt, "node-2", Instant.now())))
                .isEmpty();
        assertThat(store.inserts()
                        .claim(ExecutionRecord.claim("job", scheduledAt, "node-2", Instant.now())
                                .next(ExecutionOrigin.RETRY, "node-2", Instant.now(), Instant.now(), null)))
                .isPresent();
    }

    @Test
    void successesWrittenInOneTransactionAreEachFencedOnTheirOwnClaim() throws Exception {
        DschedJdbc jdbc = new DschedJdbc(this.dataSource, DatabasePlatform.detect(this.dataSource));
        new DschedSchemaInitializer(jdbc, DatabaseInitializationMode.ALWAYS).initializeDatabase();
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        try (ExecutionStore store = store(jdbc)) {
            List<ExecutionRecord> claims = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                claims.add(store.inserts()
                        .claim(ExecutionRecord.claim("job", now.plusSeconds(i), "node-1", now))
                        .orElseThrow());
            }
            ExecutionRecord takenOver = claims.get(7);
            store.outcomes()
                    .finish(takenOver.claimedBy("node-1", now), ExecutionStatus.FAILED, now, now, null, "taken over");

            ExecutorService workers = Executors.newFixedThreadPool(40);
            List<Future<Boolean>> written = new ArrayList<>();
            for (ExecutionRecord claim : claims) {
                written.add(workers.submit(() -> {
                    try {
                        store.outcomes()
                                .succeed(claim, now.plusMillis(1), now.plusMillis(2))
                                .join();
                        return true;
                    } catch (java.util.concurrent.CompletionException ex) {
                        assertThat(ex).hasCauseInstanceOf(LostClaimException.class);
                        return false;
                    }
                }));
            }
            workers.shutdown();
            for (int i = 0; i < claims.size(); i++) {
                assertThat(written.get(i).get(10, TimeUnit.SECONDS))
                        .as("attempt %d", i)
                        .isEqualTo(i != 7);
            }
            for (ExecutionRecord claim : claims) {
                ExecutionRecord row = store.repository().findById(claim.id()).orElseThrow();
                if (claim == takenOver) {
                    assertThat(row.status()).isEqualTo(ExecutionStatus.FAILED);
                    assertThat(row.statusReason()).isEqualTo("taken over");
                } else {
                    assertThat(row.status()).isEqualTo(ExecutionStatus.SUCCEEDED);
                    assertThat(row.startedAt()).isEqualTo(now.plusMillis(1));
                    assertThat(row.finishedAt()).isEqualTo(now.plusMillis(2));
                }
            }
        }
    }

    @Test
    void anOutcomeIsWrittenOnlyByTheNodeHoldingTheClaimAndOnlyOnce() {
        DschedJdbc jdbc = new DschedJdbc(this.dataSource, DatabasePlatform.detect(this.dataSource));
        new DschedSchemaInitializer(jdbc, DatabaseInitializationMode.ALWAYS).initializeDatabase();
        ExecutionStore store = store(jdbc);
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        ExecutionRecord claim = store.inserts()
                .claim(ExecutionRecord.claim("job", now, "node-1", now))
                .orElseThrow();
        ExecutionRecord impostor = claim.claimedBy("node-2", now);

        org.assertj.core.api.Assertions.assertThatIllegalStateException()
                .isThrownBy(() -> store.outcomes().finish(impostor, ExecutionStatus.SUCCEEDED, now, now, null, null))
                .withMessageContaining("no longer RUNNING on node node-2");
        store.outcomes()
                .finish(
                        claim,
                        ExecutionStatus.FAILED,
                        now,
                        now.plusSeconds(1),
                        new IllegalStateException("boom"),
                        null);
        org.assertj.core.api.Assertions.assertThatIllegalStateException()
                .isThrownBy(() -> store.outcomes().finish(claim, ExecutionStatus.SUCCEEDED, now, now, null, null));

        assertThat(store.repository().findById(claim.id())).hasValueSatisfying((row) -> {
            assertThat(row.status()).isEqualTo(ExecutionStatus.FAILED);
            assertThat(row.errorClass()).isEqualTo(IllegalStateException.class.getName());
            assertThat(row.errorMessage()).isEqualTo("boom");
            assertThat(row.finishedAt()).isEqualTo(now.plusSeconds(1));
        });
    }

    @Test
    void housekeepingDeletesOnlyFinishedHistoryOlderThanTheRetentionInBatches() {
        DschedJdbc jdbc = new DschedJdbc(this.dataSource, DatabasePlatform.detect(this.dataSource));
        new DschedSchemaInitializer(jdbc, DatabaseInitializationMode.ALWAYS).initializeDatabase();
        ExecutionStore store = store(jdbc);
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        Instant old = now.minus(20, ChronoUnit.DAYS);
        List<ExecutionRecord> rows = new ArrayList<>();
        for (int i = 0; i < 2500; i++) {
            rows.add(finished(ExecutionRecord.claim("old", old.plusSeconds(i), "node-1", old.plusSeconds(i))));
        }
        List<ExecutionRecord> saved = new ArrayList<>();
        store.repository().saveAll(rows).forEach(saved::add);
        ExecutionRecord running = store.repository().save(ExecutionRecord.claim("stuck", old, "node-1", old));
        ExecutionRecord waiting = store.repository()
                .save(ExecutionRecord.waiting(
                        "later",
                        old,
                        1,
                        "later:1",
                        ExecutionOrigin.ONE_OFF,
                        "node-1",
                        old,
                        now.plusSeconds(3600),
                        null,
                        null));
        ExecutionRecord recent = store.repository().save(finished(ExecutionRecord.claim("new", now, "node-1", now)));
        DeadLetterRepository letters = new DschedRepositories(jdbc.dataSource(), jdbc.platform()).deadLetters();
        DeadLetter open = letters.save(TestRows.deadLetter(old, DeadLetterStatus.OPEN));
        letters.save(TestRows.deadLetter(old, DeadLetterStatus.DISCARDED));
        ExecutionLogs logs = new ExecutionLogs(jdbc.dataSource(), jdbc.platform(), ClusterTables.DEFAULT);
        for (ExecutionRecord attempt : List.of(saved.get(0), saved.get(1499), saved.get(2499), running, recent)) {
            logs.save(new ExecutionLog(attempt.id(), attempt.jobName(), List.of("a line"), null, false, now));
        }

        int deleted = new Housekeeping(
                        jdbc.dataSource(),
                        jdbc.platform(),
                        ClusterTables.DEFAULT,
                        RETENTION,
                        1000,
                        java.time.Duration.ZERO,
                        java.time.Clock.systemUTC())
                .purge();

        assertThat(deleted).isEqualTo(2501);
        assertThat(store.repository().findAll())
                .extracting(ExecutionRecord::id)
                .containsExactlyInAnyOrder(running.id(), waiting.id(), recent.id());
        assertThat(letters.findAll()).extracting(DeadLetter::id).containsExactly(open.id());
        assertThat(new JdbcTemplate(this.dataSource)
                        .queryForList("SELECT execution_id FROM dsched_execution_log", Long.class))
                .containsExactlyInAnyOrder(running.id(), recent.id());
    }

    @Test
    void housekeepingDeletesAuditEntriesOlderThanTheAuditRetentionAndKeepsTheRest() {
        DschedJdbc jdbc = new DschedJdbc(this.dataSource, DatabasePlatform.detect(this.dataSource));
        new DschedSchemaInitializer(jdbc, DatabaseInitializationMode.ALWAYS).initializeDatabase();
        AuditLog audit = new AuditLog(new DschedRepositories(jdbc.dataSource(), jdbc.platform()).aggregates());
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        for (int days : List.of(400, 91, 89, 0)) {
            audit.record(new AuditEntry(
                    null,
                    now.minus(days, ChronoUnit.DAYS),
                    "ops",
                    "job.pause",
                    "report-" + days,
                    null,
                    null,
                    null,
                    null,
                    200,
                    null,
                    "node-1"));
        }

        int deleted = new Housekeeping(
                        jdbc.dataSource(),
                        jdbc.platform(),
                        ClusterTables.DEFAULT,
                        RETENTION,
                        1,
                        java.time.Duration.ZERO,
                        java.time.Clock.systemUTC())
                .purge();

        assertThat(deleted).isEqualTo(2);
        assertThat(new JdbcTemplate(this.dataSource).queryForList("SELECT target FROM dsched_audit", String.class))
                .containsExactlyInAnyOrder("report-89", "report-0");
    }

    @Test
    void housekeepingRestsAfterEachFullBatchAndAnInterruptedOneStartsNoBatch() {
        DschedJdbc jdbc = new DschedJdbc(this.dataSource, DatabasePlatform.detect(this.dataSource));
        new DschedSchemaInitializer(jdbc, DatabaseInitializationMode.ALWAYS).initializeDatabase();
        AuditLog audit = new AuditLog(new DschedRepositories(jdbc.dataSource(), jdbc.platform()).aggregates());
        Instant old = Instant.now().truncatedTo(ChronoUnit.MILLIS).minus(400, ChronoUnit.DAYS);
        for (int i = 0; i < 3; i++) {
            audit.record(new AuditEntry(
                    null, old, "ops", "job.pause", "old-" + i, null, null, null, null, 200, null, "node-1"));
        }
        Housekeeping resting = new Housekeeping(
                jdbc.dataSource(),
                jdbc.platform(),
                ClusterTables.DEFAULT,
                RETENTION,
                1,
                Duration.ofMillis(300),
                java.time.Clock.systemUTC());
        JdbcTemplate sql = new JdbcTemplate(this.dataSource);

        // an operator's stop interrupts the housekeeping job: it starts no batch after that
        Thread.currentThread().interrupt();
        try {
            assertThat(resting.purge()).isZero();
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
        assertThat(sql.queryForObject("SELECT COUNT(*) FROM dsched_audit", Long.class))
                .isEqualTo(3);

        // three full batches of one row, each followed by a rest, then an empty one
        long started = System.nanoTime();
        assertThat(resting.purge()).isEqualTo(3);
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofMillis(900));
        assertThat(sql.queryForObject("SELECT COUNT(*) FROM dsched_audit", Long.class))
                .isZero();
    }

    @Test
    void afterHousekeepingNoTableDschedWritesHoldsARowPastItsRetention() {
        DschedJdbc jdbc = new DschedJdbc(this.dataSource, DatabasePlatform.detect(this.dataSource));
        new DschedSchemaInitializer(jdbc, DatabaseInitializationMode.ALWAYS).initializeDatabase();
        DatabasePlatform platform = jdbc.platform();
        ExecutionStore store = store(jdbc);
        JdbcTemplate sql = new JdbcTemplate(this.dataSource);
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        Instant old = now.minus(400, ChronoUnit.DAYS);
        ExecutionRecord ran = store.repository().save(finished(ExecutionRecord.claim("ran", old, "node-1", old)));
        ExecutionRecord cancelled = store.repository()
                .save(ExecutionRecord.waiting(
                        "gone", old, 1, "gone:1", ExecutionOrigin.ONE_OFF, "node-1", old, old, null, null));
        sql.update(
                "UPDATE dsched_execution SET status = 'CANCELLED', finished_at = ? WHERE id = ?",
                platform.dialect().bindable(old),
                cancelled.id());
        // waiting for ten days: past the waiting retention, within the history's
        Instant overdue = now.minus(10, ChronoUnit.DAYS);
        ExecutionRecord stale = store.repository()
                .save(ExecutionRecord.waiting(
                        "orphan",
                        overdue,
                        2,
                        "orphan:1",
                        ExecutionOrigin.SCHEDULE,
                        "node-1",
                        overdue,
                        overdue,
                        null,
                        null));
        ExecutionRecord later = store.repository()
                .save(ExecutionRecord.waiting(
                        "later",
                        now,
                        1,
                        "later:1",
                        ExecutionOrigin.ONE_OFF,
                        "node-1",
                        now,
                        now.plus(30, ChronoUnit.DAYS),
                        null,
                        null));
        new ExecutionLogs(jdbc.dataSource(), platform, ClusterTables.DEFAULT)
                .save(new ExecutionLog(ran.id(), "ran", List.of("a line"), null, false, old));
        DeadLetterRepository letters = new DschedRepositories(jdbc.dataSource(), platform).deadLetters();
        DeadLetter open = letters.save(TestRows.deadLetter(old, DeadLetterStatus.OPEN));
        letters.save(TestRows.deadLetter(old, DeadLetterStatus.REPLAYED));
        new AuditLog(new DschedRepositories(jdbc.dataSource(), platform).aggregates())
                .record(new AuditEntry(
                        null, old, "ops", "job.pause", "ran", null, null, null, null, 200, null, "node-1"));
        // a stop requested long ago: of an attempt that has ended, and of one that still runs
        ExecutionRecord stillRunning = store.repository().save(ExecutionRecord.claim("endless", old, "node-1", old));
        String request =
                "INSERT INTO dsched_cancel_request (execution_id, requested_at, requested_by) VALUES (?, ?, 'ops')";
        sql.update(request, ran.id(), platform.dialect().bindable(old));
        sql.update(request, stillRunning.id(), platform.dialect().bindable(old));
        UniqueKeys keys = new UniqueKeys(jdbc.dataSource(), platform, ClusterTables.DEFAULT, jdbc.transactions());
        keys.hold("remind:closed", new HeldKey(ran.id(), old), now.minus(1, ChronoUnit.DAYS));
        keys.hold("remind:open", new HeldKey(ran.id(), old), now.plus(1, ChronoUnit.DAYS));
        // a deployment no node started for 400 days is forgotten; the newest is kept however old
        String deployment = "INSERT INTO dsched_deployment (cluster_name, deployment_hash, job_names, node_id,"
                + " first_seen_at, last_started_at) VALUES ('dsched', ?, 'ran', 'node-1', ?, ?)";
        sql.update(
                deployment,
                "forgotten",
                platform.dialect().bindable(old),
                platform.dialect().bindable(old));
        sql.update(
                "INSERT INTO dsched_node_deployment (cluster_name, node_id, deployment_hash, registered_at)"
                        + " VALUES ('dsched', 'gone-node', 'forgotten', ?)",
                platform.dialect().bindable(old));
        sql.update(
                "INSERT INTO dsched_job_removal (cluster_name, job_name, removed_at) VALUES ('dsched', 'ran', ?)",
                platform.dialect().bindable(old));
        sql.update(
                "INSERT INTO dsched_node_clock (node_id, offset_ms, measured_at) VALUES ('gone-node', 30000, ?)",
                platform.dialect().bindable(old));
        sql.update(
                deployment,
                "newest",
                platform.dialect().bindable(old.plusSeconds(1)),
                platform.dialect().bindable(old));
        Retention retention =
                new Retention(Duration.ofDays(14), Duration.ofDays(7), Duration.ofDays(90), Duration.ofDays(365));
        new Housekeeping(
                        jdbc.dataSource(),
                        platform,
                        ClusterTables.DEFAULT,
                        retention,
                        1000,
                        java.time.Duration.ZERO,
                        java.time.Clock.systemUTC())
                .purge();

        // what remains: what is younger than its retention, or kept until someone acts
        assertThat(sql.queryForList("SELECT id FROM dsched_execution", Long.class))
                .containsExactlyInAnyOrder(stale.id(), later.id(), stillRunning.id());
        assertThat(sql.queryForList("SELECT execution_id FROM dsched_cancel_request", Long.class))
                .containsExactly(stillRunning.id());
        assertThat(store.repository().findById(stale.id())).hasValueSatisfying((row) -> {
            assertThat(row.status()).isEqualTo(ExecutionStatus.CANCELLED);
            assertThat(row.statusReason()).isEqualTo(Housekeeping.STALE);
        });
        assertThat(store.repository().findById(later.id()))
                .hasValueSatisfying((row) -> assertThat(row.status()).isEqualTo(ExecutionStatus.SCHEDULED));
        assertThat(sql.queryForObject("SELECT COUNT(*) FROM dsched_execution_log", Long.class))
                .isZero();
        assertThat(letters.findAll()).extracting(DeadLetter::id).containsExactly(open.id());
        assertThat(sql.queryForObject("SELECT COUNT(*) FROM dsched_audit", Long.class))
                .isZero();
        assertThat(sql.queryForList("SELECT idempotency_key FROM dsched_unique_key", String.class))
                .containsExactly("remind:open");
        assertThat(keys.held("remind:open", now)).isPresent();
        assertThat(sql.queryForList("SELECT deployment_hash FROM dsched_deployment", String.class))
                .containsExactly("newest");
        assertThat(sql.queryForObject("SELECT COUNT(*) FROM dsched_node_deployment", Long.class))
                .isZero();
        assertThat(sql.queryForObject("SELECT COUNT(*) FROM dsched_job_removal", Long.class))
                .isZero();
        assertThat(sql.queryForObject("SELECT COUNT(*) FROM dsched_node_clock", Long.class))
                .isZero();
    }

    @Test
    void anExecutionLogReadsBackAsWritten() {
        DschedJdbc jdbc = new DschedJdbc(this.dataSource, DatabasePlatform.detect(this.dataSource));
        new DschedSchemaInitializer(jdbc, DatabaseInitializationMode.ALWAYS).initializeDatabase();
        ExecutionLogs logs = new ExecutionLogs(jdbc.dataSource(), jdbc.platform(), ClusterTables.DEFAULT);
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        List<String> lines = new ArrayList<>();
        for (int i = 0; i < 2000; i++) {
            lines.add(now + " INFO com.example.Billing - invoice " + i + " réglée ✓ 🧾");
        }
        String stackTrace = "java.lang.IllegalStateException: boom\n\tat com.example.Billing.run(Billing.java:42)\n";

        logs.save(new ExecutionLog(41, "billing", lines, stackTrace, true, now));
        logs.save(new ExecutionLog(42, "quiet-failure", List.of(), "java.lang.Error\n", false, now));

        assertThat(logs.find(41)).hasValueSatisfying((log) -> {
            assertThat(log.jobName()).isEqualTo("billing");
            assertThat(log.lines()).isEqualTo(lines);
            assertThat(log.stackTrace()).isEqualTo(stackTrace);
            assertThat(log.truncated()).isTrue();
            assertThat(log.createdAt()).isEqualTo(now);
        });
        assertThat(logs.find(42)).hasValueSatisfying((log) -> {
            assertThat(log.lines()).isEmpty();
            assertThat(log.truncated()).isFalse();
        });
        assertThat(logs.find(43)).isEmpty();
    }

    @Test
    void attemptsInsertedInBatchesGetEachTheirOwnIdAndReadBackAsWritten() {
        insertsInBatches(ClusterTables.DEFAULT);
    }

    /** The tables of a cluster of its own: on PostgreSQL, its own sequence gives the ids of a large batch. */
    @Test
    void attemptsInsertedInBatchesIntoTheTablesOfAnotherClusterReadBackAsWritten() {
        insertsInBatches(ClusterTables.of("billing"));
    }

    private void insertsInBatches(ClusterTables tables) {
        DschedJdbc jdbc = new DschedJdbc(this.dataSource, DatabasePlatform.detect(this.dataSource), tables);
        new DschedSchemaInitializer(jdbc, DatabaseInitializationMode.ALWAYS).initializeDatabase();
        DschedRepositories repositories = new DschedRepositories(jdbc.dataSource(), jdbc.platform(), tables);
        ExecutionStore store = new ExecutionStore(
                repositories.executions(),
                repositories.deadLetters(),
                jdbc.transactions(),
                jdbc.dataSource(),
                jdbc.platform(),
                tables,
                true,
                StartBacklog.NONE);
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        List<ExecutionRecord> rows = new ArrayList<>();
        // more than one batch, each large enough for PostgreSQL's COPY; three attempts share each
        // key, so an id is found by key and attempt; text that COPY's format would read otherwise
        // if it were not escaped (a tab, line ends, backslashes, its null marker and end-of-data line)
        String awkward = "tab\there\nnew line\r\ncarriage\\N \\. back\\slash\n\\.\n é";
        for (int i = 0; i < 1501; i++) {
            boolean retry = i % 3 != 0;
            rows.add(new ExecutionRecord(
                    null,
                    "remind-" + (i % 4),
                    now.minusSeconds(i),
                    1 + i % 3,
                    "remind:batch-" + (i / 3),
                    retry ? ExecutionStatus.RETRY_SCHEDULED : ExecutionStatus.SCHEDULED,
                    "node-" + (i % 2),
                    now.plusMillis(i),
                    retry ? now.plusMillis(2 * i) : null,
                    retry ? "java.lang.IllegalStateException" : null,
                    retry ? "failed, 'quoted', {\"x\": [1]} " + i + ((i % 11 == 0) ? awkward : "") : null,
                    retry ? "retry " + i : null,
                    (i % 5 == 0) ? ExecutionOrigin.MANUAL : ExecutionOrigin.ONE_OFF,
                    now.plusSeconds(i),
                    (i % 7 == 0)
                            ? null
                            : "{\"n\":" + i + ",\"s\":\"a,b \\\"c\\\"" + ((i % 13 == 0) ? "\\t\\n\\\\" : "") + "\""
                                    + ((i % 17 == 0) ? ",\"raw\":\"" + awkward + "\"" : "") + "}",
                    i % 3 - 1,
                    (i % 4 == 0) ? null : "tenant-" + (i % 5) + ((i % 11 == 0) ? awkward : "")));
        }

        List<ExecutionRecord> saved = store.inserts().insertAll(rows);
        // a key and attempt taken already: the whole batch is refused, as a duplicate, small or large
        assertThatThrownBy(() -> store.inserts().insertAll(List.of(oneOff("remind:fresh", now, now), rows.get(1499))))
                .isInstanceOf(DuplicateKeyException.class);
        List<ExecutionRecord> large = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
            large.add(oneOff("remind:fresh-" + i, now, now));
        }
        large.add(rows.get(1499));
        assertThatThrownBy(() -> store.inserts().insertAll(large)).isInstanceOf(DuplicateKeyException.class);
        assertThat(store.repository().findByIdempotencyKey("remind:fresh")).isEmpty();
        assertThat(store.repository().findByIdempotencyKey("remind:fresh-0")).isEmpty();
        assertThat(store.repository().count()).isEqualTo(rows.size());

        assertThat(saved).hasSize(rows.size());
        assertThat(saved.stream().map(ExecutionRecord::id).toList())
                .as("ids in the order of the batch")
                .doesNotHaveDuplicates()
                .isSorted();
        for (int i = 0; i < rows.size(); i++) {
            ExecutionRecord row = saved.get(i);
            assertThat(row).isEqualTo(rows.get(i).withId(row.id()));
            assertThat(store.repository().findById(row.id())).contains(row);
        }
        // the table's own ids go on after those of the batches
        ExecutionRecord after =
                store.inserts().claim(oneOff("remind:after", now, now)).orElseThrow();
        assertThat(after.id()).isGreaterThan(saved.get(saved.size() - 1).id());
    }

    @Test
    void dueAttemptsAreClaimedOldestFirstWhetherFirstAttemptsOrRetries() {
        DschedJdbc jdbc = new DschedJdbc(this.dataSource, DatabasePlatform.detect(this.dataSource));
        new DschedSchemaInitializer(jdbc, DatabaseInitializationMode.ALWAYS).initializeDatabase();
        ExecutionStore store = store(jdbc);
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        List<ExecutionRecord> rows = store.inserts()
                .insertAll(List.of(
                        oneOff("remind:later", now, now.minusSeconds(1)),
                        oneOff("remind:oldest", now, now.minusSeconds(5)),
                        oneOff("remind:not-due", now, now.plusSeconds(60)),
                        oneOff("remind:retried", now, now.minusSeconds(3))
                                .next(ExecutionOrigin.RETRY, "node-1", now, now.minusSeconds(3), null),
                        ExecutionRecord.waiting(
                                "other",
                                now,
                                1,
                                "other:a",
                                ExecutionOrigin.ONE_OFF,
                                "node-1",
                                now,
                                now.minusSeconds(9),
                                null,
                                null)));
        assertThat(rows.get(3).status()).isEqualTo(ExecutionStatus.RETRY_SCHEDULED);

        List<ExecutionRecord> first = store.claims().claimDue("node-2", now, 2, List.of("remind"));
        List<ExecutionRecord> second = store.claims().claimDue("node-2", now, 5, List.of("remind"));

        assertThat(first)
                .extracting(ExecutionRecord::id)
                .containsExactly(rows.get(1).id(), rows.get(3).id());
        assertThat(second)
                .extracting(ExecutionRecord::id)
                .containsExactly(rows.get(0).id());
        for (ExecutionRecord claimed : List.of(first.get(0), first.get(1), second.get(0))) {
            assertThat(store.repository().findById(claimed.id())).hasValueSatisfying((row) -> {
                assertThat(row.status()).isEqualTo(ExecutionStatus.RUNNING);
                assertThat(row.nodeId()).isEqualTo("node-2");
            });
        }
        assertThat(store.claims().claimDue("node-2", now, 5, List.of("remind"))).isEmpty();

        // inserted newest first: the claim returns them in the order they fell due, not as stored
        List<ExecutionRecord> descending = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            descending.add(oneOff("remind:descending-" + i, now, now.minusSeconds(10 + i)));
        }
        List<Long> ids = new ArrayList<>(store.inserts().insertAll(descending).stream()
                .map(ExecutionRecord::id)
                .toList());
        Collections.reverse(ids);
        assertThat(store.claims().claimDue("node-2", now, 8, List.of("remind")))
                .extracting(ExecutionRecord::id)
                .containsExactlyElementsOf(ids);
    }

    @Test
    void aSubmittedFireKeepsTheTraceContextWrittenWithItsFirstAttempt() {
        DschedJdbc jdbc = new DschedJdbc(this.dataSource, DatabasePlatform.detect(this.dataSource));
        new DschedSchemaInitializer(jdbc, DatabaseInitializationMode.ALWAYS).initializeDatabase();
        ExecutionStore store = store(jdbc);
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        String traced = "{\"traceparent\":\"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01\"}";

        assertThat(store.inserts().claim(oneOff("remind:a", now, now), traced)).isPresent();
        assertThat(store.inserts().claim(oneOff("remind:a", now, now), "{\"traceparent\":\"another\"}"))
                .isEmpty();
        List<ExecutionRecord> batch = store.inserts()
                .insertAll(List.of(oneOff("remind:b", now, now), oneOff("remind:c", now, now)), "{\"b3\":\"1-2-1\"}");
        assertThat(store.inserts().claim(oneOff("remind:d", now, now), null)).isPresent();
        assertThat(store.inserts().claim(oneOff("remind:e", now, now), "x".repeat(1001)))
                .isPresent();

        assertThat(batch).hasSize(2);
        assertThat(store.traceCarrier("remind:a")).contains(traced);
        assertThat(store.traceCarrier("remind:b")).contains("{\"b3\":\"1-2-1\"}");
        assertThat(store.traceCarrier("remind:c")).contains("{\"b3\":\"1-2-1\"}");
        assertThat(store.traceCarrier("remind:d")).isEmpty();
        assertThat(store.traceCarrier("remind:e")).isEmpty();
        assertThat(store.repository().findByIdempotencyKey("remind:e")).hasSize(1);
    }

    @Test
    void housekeepingDeletesTheTraceContextsOfOldFiresWithNoAttemptLeft() {
        DschedJdbc jdbc = new DschedJdbc(this.dataSource, DatabasePlatform.detect(this.dataSource));
        new DschedSchemaInitializer(jdbc, DatabaseInitializationMode.ALWAYS).initializeDatabase();
        ExecutionStore store = store(jdbc);
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        Instant old = now.minus(20, ChronoUnit.DAYS);
        String carrier = "{\"traceparent\":\"00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01\"}";
        ExecutionRecord done =
                store.inserts().claim(oneOff("remind:done", old, old), carrier).orElseThrow();
        store.inserts().claim(oneOff("remind:later", old, now.plusSeconds(3600)), carrier);
        ExecutionRecord recent = store.inserts()
                .claim(oneOff("remind:recent", now, now), carrier)
                .orElseThrow();
        JdbcTemplate sql = new JdbcTemplate(this.dataSource);
        for (ExecutionRecord row : List.of(done, recent)) {
            sql.update(
                    "UPDATE dsched_execution SET status = 'SUCCEEDED', finished_at = started_at WHERE id = ?",
                    row.id());
        }

        int deleted = new Housekeeping(
                        jdbc.dataSource(),
                        jdbc.platform(),
                        ClusterTables.DEFAULT,
                        RETENTION,
                        1,
                        java.time.Duration.ZERO,
                        java.time.Clock.systemUTC())
                .purge();

        assertThat(deleted).isEqualTo(2);
        assertThat(sql.queryForList("SELECT idempotency_key FROM dsched_execution_trace", String.class))
                .containsExactlyInAnyOrder("remind:later", "remind:recent");
    }

    private static ExecutionRecord oneOff(String key, Instant now, Instant dueAt) {
        return ExecutionRecord.waiting(
                "remind", dueAt, 1, key, ExecutionOrigin.ONE_OFF, "node-1", now, dueAt, "\"hi\"", null);
    }

    private static ExecutionRecord finished(ExecutionRecord claim) {
        return new ExecutionRecord(
                null,
                claim.jobName(),
                claim.scheduledAt(),
                claim.attempt(),
                claim.idempotencyKey(),
                ExecutionStatus.SUCCEEDED,
                claim.nodeId(),
                claim.startedAt(),
                claim.startedAt().plusMillis(5),
                null,
                null,
                null,
                claim.origin(),
                null,
                null,
                claim.priority(),
                claim.limitKey());
    }

    @Test
    void nodesStartingAtTheSameMomentCreateTheSchemaOneAfterTheOther() throws Exception {
        DschedJdbc jdbc = new DschedJdbc(this.dataSource, DatabasePlatform.detect(this.dataSource));
        java.util.concurrent.CountDownLatch gate = new java.util.concurrent.CountDownLatch(1);
        List<java.util.concurrent.CompletableFuture<Boolean>> nodes = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            nodes.add(java.util.concurrent.CompletableFuture.supplyAsync(() -> {
                try {
                    gate.await();
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                }
                return new DschedSchemaInitializer(jdbc, DatabaseInitializationMode.ALWAYS).initializeDatabase();
            }));
        }
        gate.countDown();

        for (java.util.concurrent.CompletableFuture<Boolean> node : nodes) {
            assertThat(node.get(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        }
        assertThat(new JdbcTemplate(this.dataSource)
                        .queryForObject("SELECT COUNT(*) FROM dsched_execution", Long.class))
                .isZero();
    }
}
