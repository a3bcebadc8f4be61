package io.dsched.internal.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dsched.definition.Schedule;
import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.ExecutionStatus;
import io.dsched.internal.engine.DschedEngine;
import io.dsched.jobs.JobScheduler;
import io.dsched.jobs.RecurringJob;
import io.dsched.quartz.ClusterJobStore;
import io.dsched.quartz.SkipLockedJobStore;
import io.dsched.test.ClusterNode;
import io.dsched.test.TestCluster;
import io.dsched.test.TestDatabases;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Trigger acquisition without Quartz's cluster-wide lock: while another session holds the
 * {@code TRIGGER_ACCESS} row of Quartz's locks table, the skip-locked store keeps firing, and
 * the stock store, as a control, waits for it; a node that stops during a run leaves no trigger
 * behind that the completion of its last fire should have released. Run against each database with
 * {@code SKIP LOCKED} by a small subclass.
 */
abstract class AbstractTriggerAcquisitionTests {

    private static final Map<String, Object> TICK_EVERY_SECOND = Map.of("test.tick.cron", "* * * * * *");

    @RegisterExtension
    final TestCluster cluster = TestCluster.of(this::kind);

    protected abstract TestDatabases.Kind kind();

    /**
     * Counts the sessions of the database that wait for a row lock.
     * @param jdbc the test's own connections
     * @return how many wait
     */
    protected abstract int sessionsWaitingForALock(JdbcTemplate jdbc);

    @BeforeEach
    void resetJobs() {
        TestJobs.reset();
    }

    @Test
    void aHundredJobsFiringEverySecondOnTwoNodesKeepFiringAndLeaveNoTriggerStuck() {
        ManyJobs.fires.clear();
        ClusterNode first = this.cluster.start("node-1", ManyJobs.class, Map.of());
        this.cluster.start("node-2", ManyJobs.class, Map.of());
        JobScheduler scheduler = first.bean(JobScheduler.class);
        List<String> jobs = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            jobs.add("beat-" + i);
            scheduler.create(RecurringJob.of(
                    "beat-" + i, "beat", new Schedule.FixedRate(Duration.ofSeconds(1), Duration.ZERO), null));
        }

        // every job must go on firing: a trigger left acquired with no fire to run it never fires
        // again (seen on MariaDB before its connections were made to read committed data)
        for (Instant mark : List.of(Instant.now().plusSeconds(10), Instant.now().plusSeconds(20))) {
            await().atMost(Duration.ofSeconds(45))
                    .pollInterval(Duration.ofMillis(500))
                    .untilAsserted(() -> assertThat(jobs)
                            .allSatisfy((job) -> assertThat(ManyJobs.fires.getOrDefault(job, Set.of()))
                                    .as("fires of %s", job)
                                    .anySatisfy((fire) -> assertThat(fire).isAfterOrEqualTo(mark))));
        }
        JdbcTemplate sql = new JdbcTemplate(this.cluster.observer());
        assertThat(sql.queryForObject(
                        "SELECT COUNT(*) FROM DSCHED_QRTZ_TRIGGERS t WHERE t.TRIGGER_STATE = 'ACQUIRED' AND NOT EXISTS"
                                + " (SELECT 1 FROM DSCHED_QRTZ_FIRED_TRIGGERS f WHERE f.TRIGGER_NAME = t.TRIGGER_NAME"
                                + " AND f.TRIGGER_GROUP = t.TRIGGER_GROUP)",
                        Long.class))
                .isZero();
    }

    @Test
    void firesGoOnWhileAnotherSessionHoldsQuartzsClusterWideLock() throws Exception {
        ClusterNode first = this.cluster.start("node-1", TestJobs.class, TICK_EVERY_SECOND);
        this.cluster.start("node-2", TestJobs.class, TICK_EVERY_SECOND);
        assertThat(first.bean(DschedEngine.class).scheduler().getMetaData().getJobStoreClass())
                .isEqualTo(SkipLockedJobStore.class);
        awaitFiresAfter(Instant.now(), 1);

        try (Connection holder = this.cluster.observer().getConnection()) {
            holdTriggerAccessLock(holder);
            Instant locked = Instant.now();

            List<ExecutionRecord> fires = awaitFiresAfter(locked, 4);

            assertThat(fires).extracting(ExecutionRecord::status).containsOnly(ExecutionStatus.SUCCEEDED);
            for (ExecutionRecord fire : fires) {
                assertThat(TestJobs.invocations("tick").get(fire.scheduledAt()))
                        .as("invocations of the fire at %s", fire.scheduledAt())
                        .hasSize(1);
            }
            holder.rollback();
        }
    }

    @Test
    void theStockStoreWaitsForTheSameLockAndFiresOnceItIsReleased() throws Exception {
        Map<String, Object> stock = Map.of("test.tick.cron", "* * * * * *", "dsched.cluster.skip-locked", false);
        ClusterNode node = this.cluster.start("node-1", TestJobs.class, stock);
        assertThat(node.bean(DschedEngine.class).scheduler().getMetaData().getJobStoreClass())
                .isEqualTo(ClusterJobStore.class);
        awaitFiresAfter(Instant.now(), 1);
        JdbcTemplate jdbc = new JdbcTemplate(this.cluster.observer());

        try (Connection holder = this.cluster.observer().getConnection()) {
            holdTriggerAccessLock(holder);
            await().atMost(Duration.ofSeconds(10)).until(() -> sessionsWaitingForALock(jdbc) > 0);
            holder.rollback();
        }

        awaitFiresAfter(Instant.now(), 2);
    }

    @Test
    void aNodeThatStopsDuringARunLeavesNoFiredOrBlockedTriggerBehind() {
        ClusterNode node = this.cluster.start("node-1", TestJobs.class, Map.of("test.slow.cron", "* * * * * *"));
        await().atMost(Duration.ofSeconds(20)).until(() -> this.cluster.executions().findByJobName("slow").stream()
                .anyMatch((run) -> run.status() == ExecutionStatus.RUNNING));

        // waits for the running fire, whose completion releases its trigger
        node.close();

        JdbcTemplate jdbc = new JdbcTemplate(this.cluster.observer());
        assertThat(jdbc.queryForObject(
                        "SELECT COUNT(*) FROM DSCHED_QRTZ_FIRED_TRIGGERS WHERE INSTANCE_NAME = 'node-1'",
                        Integer.class))
                .as("fired triggers the stopped node left behind")
                .isZero();
        assertThat(jdbc.queryForObject(
                        "SELECT TRIGGER_STATE FROM DSCHED_QRTZ_TRIGGERS WHERE TRIGGER_NAME = 'slow'", String.class))
                .isEqualTo("WAITING");
    }

    private static void holdTriggerAccessLock(Connection connection) throws SQLException {
        connection.setAutoCommit(false);
        try (PreparedStatement lock = connection.prepareStatement("SELECT LOCK_NAME FROM DSCHED_QRTZ_LOCKS"
                        + " WHERE SCHED_NAME = 'dsched' AND LOCK_NAME = 'TRIGGER_ACCESS' FOR UPDATE");
                ResultSet row = lock.executeQuery()) {
            assertThat(row.next()).as("Quartz's TRIGGER_ACCESS row").isTrue();
        }
    }

    private List<ExecutionRecord> awaitFiresAfter(Instant after, int count) {
        return await().atMost(Duration.ofSeconds(20))
                .until(
                        () -> this.cluster.executions().findByJobName("tick").stream()
                                .filter((fire) -> fire.scheduledAt().isAfter(after))
                                .filter((fire) -> fire.status() != ExecutionStatus.RUNNING)
                                .toList(),
                        (fires) -> fires.size() >= count);
    }
}
