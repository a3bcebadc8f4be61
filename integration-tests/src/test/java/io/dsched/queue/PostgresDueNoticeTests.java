package io.dsched.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;
import io.dsched.internal.cluster.ClockSkew;
import io.dsched.internal.cluster.DatabaseClock;
import io.dsched.internal.deadletter.DeadLetterFilter;
import io.dsched.internal.deadletter.DeadLetters;
import io.dsched.internal.queue.NoticeHearing;
import io.dsched.internal.queue.NoticeListener;
import io.dsched.internal.store.DeadLetter;
import io.dsched.jobs.JobScheduler;
import io.dsched.jobs.OneOff;
import io.dsched.jobs.ScheduledJob;
import io.dsched.test.ClusterNode;
import io.dsched.test.ShiftedClock;
import io.dsched.test.TestCluster;
import io.dsched.test.TestDatabases;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.data.domain.PageRequest;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Attempts announced on PostgreSQL: a one-off, a replay or a trigger by hand wakes the queue of the
 * nodes that run it when its transaction commits, so it starts at once, not at their next poll.
 * The nodes here poll once an hour (but for the first look as they start): within the tests'
 * bounds only a notice can start an attempt. A node behind a pooler in transaction mode, where
 * notices go astray, finds out by itself and polls.
 */
class PostgresDueNoticeTests {

    /**
     * Far less than the nodes' poll interval of an hour, so that only a notice starts an attempt
     * within it; and far more than a start that a notice brings about takes, even on a machine whose
     * cores are shared by many times as many busy threads, where one takes seconds.
     */
    private static final Duration AT_ONCE = Duration.ofSeconds(10);

    @RegisterExtension
    final TestCluster cluster = TestCluster.on(TestDatabases.Kind.POSTGRESQL);

    @BeforeEach
    void resetJobs() {
        NoticeJobs.reset();
    }

    @Test
    void oneOffsSubmittedOnANodeThatDoesNotRunThemStartOnAnotherAtOnceAloneOrInABatch() {
        ClusterNode api = start("api", Map.of("dsched.run-jobs", false));
        ClusterNode worker = start("worker", Map.of());
        awaitHearing(worker, NoticeHearing.NOTICES);
        assertThat(api.bean(NoticeListener.class).hearing()).isEqualTo(NoticeHearing.OFF);
        JobScheduler scheduler = api.bean(JobScheduler.class);
        Map<Long, Instant> submitted = new LinkedHashMap<>();
        for (int i = 0; i < 5; i++) {
            Instant before = Instant.now();
            submitted.put(scheduler.submit(OneOff.of("note", null)).executionId(), before);
            awaitStarted(submitted.keySet());
        }
        Instant before = Instant.now();
        List<OneOff> batch = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            batch.add(OneOff.of("note", null));
        }
        scheduler.submitAll(batch).forEach((job) -> submitted.put(job.executionId(), before));

        awaitStarted(submitted.keySet());
        submitted.forEach((id, at) -> {
            NoticeJobs.Started started = NoticeJobs.STARTED.get(id);
            assertThat(started.node()).isEqualTo("worker");
            assertThat(Duration.between(at, started.at())).isLessThan(AT_ONCE);
        });
    }

    @Test
    void aOneOffSubmittedInTheCallersTransactionIsAnnouncedOnceTheTransactionCommitsAndNotIfItRollsBack() {
        ClusterNode api = start("api", Map.of("dsched.run-jobs", false));
        ClusterNode worker = start("worker", Map.of());
        awaitHearing(worker, NoticeHearing.NOTICES);
        JobScheduler scheduler = api.bean(JobScheduler.class);
        TransactionTemplate transaction =
                new TransactionTemplate(new DataSourceTransactionManager(api.bean(DataSource.class)));
        JdbcTemplate observer = new JdbcTemplate(this.cluster.observer());
        String count = this.cluster.tables().sql("SELECT COUNT(*) FROM dsched_execution WHERE id = ?");

        long rolledBack = transaction.execute((status) -> {
            status.setRollbackOnly();
            return scheduler.submit(OneOff.of("note", null)).executionId();
        });
        ScheduledJob job = transaction.execute((status) -> {
            ScheduledJob stored = scheduler.submit(OneOff.of("note", null));
            // the submission is the caller's: no other session sees it before the commit
            assertThat(observer.queryForObject(count, Long.class, stored.executionId()))
                    .isZero();
            return stored;
        });
        Instant committed = Instant.now();

        awaitStarted(List.of(job.executionId()));
        assertThat(Duration.between(
                        committed, NoticeJobs.STARTED.get(job.executionId()).at()))
                .isLessThan(AT_ONCE);
        assertThat(observer.queryForObject(count, Long.class, rolledBack)).isZero();
        assertThat(NoticeJobs.STARTED).containsOnlyKeys(job.executionId());
    }

    @Test
    void aReplayAndATriggerByHandOnANodeThatRunsNoJobsStartAtOnceOnOneThatDoes() {
        ClusterNode api = start("api", Map.of("dsched.run-jobs", false));
        ClusterNode worker = start("worker", Map.of());
        awaitHearing(worker, NoticeHearing.NOTICES);
        long failed =
                api.bean(JobScheduler.class).submit(OneOff.of("flaky", null)).executionId();
        DeadLetters letters = api.bean(DeadLetters.class);
        await().atMost(AT_ONCE).until(() -> letters.openCount() == 1);
        DeadLetter letter = letters.list(DeadLetterFilter.ALL, PageRequest.of(0, 10))
                .getContent()
                .get(0);
        assertThat(letter.executionId()).isEqualTo(failed);
        NoticeJobs.failing = false;

        Instant replayed = Instant.now();
        long replay = letters.replay(letter.id(), "ops", "fixed").orElseThrow().id();
        Instant triggered = Instant.now();
        long manual = api.bean(JobScheduler.class).trigger("yearly").executionId();

        awaitStarted(List.of(replay, manual));
        assertThat(Duration.between(replayed, NoticeJobs.STARTED.get(replay).at()))
                .isLessThan(AT_ONCE);
        assertThat(Duration.between(triggered, NoticeJobs.STARTED.get(manual).at()))
                .isLessThan(AT_ONCE);
        assertThat(NoticeJobs.STARTED.get(manual).node()).isEqualTo("worker");
    }

    @Test
    void aNodeBehindAPoolerInTransactionModeFindsItsNoticesGoAstrayAndPollsInstead() throws Exception {
        try (PgBouncer bouncer = PgBouncer.inFrontOf(this.cluster.database())) {
            ClusterNode api = start("api", Map.of("dsched.run-jobs", false));
            ClusterNode direct = start("direct", Map.of());
            ClusterNode pooled = start(
                    "pooled",
                    Map.of(
                            "spring.datasource.url",
                            bouncer.url(),
                            "dsched.jdbc.initialize-schema",
                            "never",
                            "dsched.queue.poll-interval",
                            "200ms"));
            awaitHearing(direct, NoticeHearing.NOTICES);
            awaitHearing(pooled, NoticeHearing.ASTRAY);
            direct.close();

            long id =
                    api.bean(JobScheduler.class).submit(OneOff.of("note", null)).executionId();

            awaitStarted(List.of(id));
            assertThat(NoticeJobs.STARTED.get(id).node()).isEqualTo("pooled");
            assertThat(pooled.bean(NoticeListener.class).hearing()).isEqualTo(NoticeHearing.ASTRAY);
            // before its pooler
            pooled.close();
        }
    }

    @Test
    void aOneOffDueNowStartsAtOnceOnANodeWhoseEstimateOfTheDatabasesClockLagsTheSubmittersByFarMoreThanANoticeTakes() {
        ClusterNode api = start("api", Map.of("dsched.run-jobs", false));
        // the worker measures its clock against the database's once, at start; set back after
        // that, its estimate of the database's clock lags the api's as two nodes' estimates may
        // (by up to half a heartbeat's round trip each, tens of milliseconds on a loaded machine)
        ClusterNode worker = this.cluster.start(
                "worker",
                LaggingNoticeJobs.class,
                options(Map.of("dsched.recovery.heartbeat-interval", "1h", "dsched.recovery.node-timeout", "3h")));
        awaitHearing(worker, NoticeHearing.NOTICES);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> worker.bean(ClockSkew.class).isMeasured());
        worker.bean(ShiftedClock.class).shift(Duration.ofMillis(-500));

        Instant before = Instant.now();
        long id = api.bean(JobScheduler.class).submit(OneOff.of("note", null)).executionId();

        // due now by the api's clock, not yet by the worker's: the notice gives the api's time, and
        // the worker claims again when its own clock reaches it, not before
        awaitStarted(List.of(id));
        assertThat(NoticeJobs.STARTED.get(id).node()).isEqualTo("worker");
        assertThat(Duration.between(before, NoticeJobs.STARTED.get(id).at()))
                .isGreaterThanOrEqualTo(Duration.ofMillis(450))
                .isLessThan(AT_ONCE);
    }

    /** The notice tests' application on a node whose clock can be set back while it runs. */
    @Configuration(proxyBeanMethods = false)
    @Import(NoticeJobs.class)
    static class LaggingNoticeJobs {

        @Bean
        ShiftedClock shiftedClock() {
            return new ShiftedClock(Clock.systemUTC(), Duration.ZERO);
        }

        @Bean
        DatabaseClock testDatabaseClock(ShiftedClock clock) {
            return new DatabaseClock(clock);
        }
    }

    private void awaitHearing(ClusterNode node, NoticeHearing hearing) {
        NoticeListener listener = node.bean(NoticeListener.class);
        await().atMost(Duration.ofSeconds(10)).until(() -> listener.hearing() == hearing);
    }

    private void awaitStarted(Iterable<Long> ids) {
        try {
            await().atMost(AT_ONCE).until(() -> {
                for (Long id : ids) {
                    if (!NoticeJobs.STARTED.containsKey(id)) {
                        return false;
                    }
                }
                return true;
            });
        } catch (ConditionTimeoutException ex) {
            throw new AssertionError("Not all of " + ids + " started; " + state(), ex);
        }
    }

    /** What the attempts' rows and the nodes' listeners and clocks say, for a wait that failed. */
    private String state() {
        List<Map<String, Object>> rows = new JdbcTemplate(this.cluster.observer())
                .queryForList(this.cluster
                        .tables()
                        .sql(
                                "SELECT id, job_name, status, node_id, due_at, started_at, CURRENT_TIMESTAMP AS database_now"
                                        + " FROM dsched_execution ORDER BY id"));
        StringBuilder state = new StringBuilder();
        for (ClusterNode node : this.cluster.nodes()) {
            try {
                DatabaseClock clock = node.bean(DatabaseClock.class);
                state.append("node ")
                        .append(node.id())
                        .append(" hears ")
                        .append(node.bean(NoticeListener.class).hearing())
                        .append(" (")
                        .append(node.bean(NoticeListener.class).heardSoFar())
                        .append(")")
                        .append(", its estimate of the database's clock ")
                        .append(clock.instant())
                        .append(" (offset ")
                        .append(clock.offset())
                        .append("), its pool ")
                        .append(pool(node.bean(DataSource.class)))
                        .append("; ");
            } catch (IllegalStateException ex) {
                state.append("node ").append(node.id()).append(" closed; ");
            }
        }
        state.append("the attempts: ").append(rows);
        // where the queues' pollers and the listeners were, should one be stuck
        Thread.getAllStackTraces().forEach((thread, stack) -> {
            if (thread.getName().startsWith("dsched-queue") || thread.getName().startsWith("dsched-notices")) {
                state.append("; ").append(thread.getName()).append(' ').append(thread.getState());
                for (StackTraceElement frame : stack) {
                    state.append("\n    at ").append(frame);
                }
            }
        });
        return state.toString();
    }

    /** How many of a pool's connections are in use and how many callers wait for one. */
    private static String pool(DataSource dataSource) {
        try {
            HikariPoolMXBean pool = dataSource.unwrap(HikariDataSource.class).getHikariPoolMXBean();
            return pool.getActiveConnections() + " in use, " + pool.getThreadsAwaitingConnection() + " waiting";
        } catch (SQLException ex) {
            return "unknown";
        }
    }

    private ClusterNode start(String id, Map<String, Object> properties) {
        return this.cluster.start(id, NoticeJobs.class, options(properties));
    }

    private static Map<String, Object> options(Map<String, Object> properties) {
        Map<String, Object> all = new LinkedHashMap<>();
        all.put("dsched.queue.poll-interval", "1h");
        all.put("dsched.history.cleanup-cron", "0 0 0 1 1 *");
        all.putAll(properties);
        return all;
    }
}
