package io.dsched.priority;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dsched.execution.ExecutionRecord;
import io.dsched.internal.deadletter.DeadLetters;
import io.dsched.jobs.JobScheduler;
import io.dsched.jobs.OneOff;
import io.dsched.jobs.ScheduledJob;
import io.dsched.test.ClusterNode;
import io.dsched.test.TestCluster;
import io.dsched.test.TestDatabases;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Priorities: among the due attempts, the nodes claim and start the higher priority first, so that
 * a backlog of thousands of low-priority attempts does not hold up a high one. Run against each
 * database by a small subclass.
 */
abstract class AbstractPriorityTests {

    private static final Duration POLL = Duration.ofSeconds(1);

    private static final Map<String, Object> PROPERTIES = Map.of(
            "dsched.threads", "4",
            "dsched.metrics.refresh", "0s",
            "dsched.queue.poll-interval", POLL.toMillis() + "ms");

    @RegisterExtension
    final TestCluster cluster = TestCluster.of(this::kind);

    /**
     * Returns the database this suite runs on.
     * @return the kind of database
     */
    protected abstract TestDatabases.Kind kind();

    @BeforeEach
    void reset() {
        PriorityJobs.reset();
    }

    @Test
    void aHighPriorityAttemptStartsWithinOnePollWhileFiveThousandLowOnesWait() {
        List<ClusterNode> nodes = List.of(start("priority-1"), start("priority-2"), start("priority-3"));
        List<OneOff> backlog = new ArrayList<>();
        for (int i = 0; i < 5000; i++) {
            backlog.add(OneOff.of("bulk", null));
        }
        JobScheduler scheduler = nodes.get(0).bean(JobScheduler.class);
        scheduler.submitAll(backlog);
        // the backlog is being worked off, twelve workers at a time, each of its attempts for 10 ms
        await().atMost(Duration.ofSeconds(30)).until(() -> PriorityJobs.BULK_STARTED.get() >= 100);

        // a handler of a higher priority, and a one-off of the bulk handler given one of its own
        Instant submitted = Instant.now();
        ScheduledJob urgent = nodes.get(1).bean(JobScheduler.class).submit(OneOff.of("urgent", null));
        ScheduledJob raised = scheduler.submit(OneOff.of("bulk", null).priority(5));

        await().atMost(Duration.ofSeconds(30))
                .until(() -> PriorityJobs.STARTED.containsKey(urgent.idempotencyKey())
                        && PriorityJobs.STARTED.containsKey(raised.idempotencyKey()));
        Duration urgentAfter = Duration.between(submitted, PriorityJobs.STARTED.get(urgent.idempotencyKey()));
        Duration raisedAfter = Duration.between(submitted, PriorityJobs.STARTED.get(raised.idempotencyKey()));
        int bulkStarted = PriorityJobs.BULK_BEFORE.get(urgent.idempotencyKey());
        System.out.printf(
                "[dsched-test] %s: the urgent attempt started %d ms and the raised one %d ms after their"
                        + " submission, with %d of 5000 low-priority attempts started%n",
                kind(), urgentAfter.toMillis(), raisedAfter.toMillis(), bulkStarted);
        // claimed by the next claim after their submission: within one poll interval and the claim's
        // own time, under a second on an idle machine; H2 claims each attempt by an update of its own,
        // which under a full build on two cores took up to 3 s. Passed over, they would wait behind
        // thousands of the backlog, which the next assertions count
        Duration nextClaim = (kind() == TestDatabases.Kind.H2) ? POLL.multipliedBy(5) : POLL.multipliedBy(2);
        assertThat(urgentAfter).as("the urgent attempt's wait").isLessThan(nextClaim);
        assertThat(raisedAfter).as("the raised attempt's wait").isLessThan(nextClaim);
        // they passed the backlog: most of it was still waiting when they started
        assertThat(bulkStarted).isLessThan(2500);
        assertThat(PriorityJobs.BULK_BEFORE.get(raised.idempotencyKey())).isLessThan(2500);
        assertThat(new JdbcTemplate(this.cluster.observer())
                        .queryForObject(
                                "SELECT priority FROM dsched_execution WHERE idempotency_key = ?",
                                Integer.class,
                                raised.idempotencyKey()))
                .isEqualTo(5);
    }

    @Test
    void aHighPriorityAttemptOfALimitedHandlerIsItsNextClaimed() {
        List<ClusterNode> nodes = List.of(start("metered-1"), start("metered-2"));
        List<OneOff> backlog = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
            backlog.add(OneOff.of("metered", null));
        }
        JobScheduler scheduler = nodes.get(0).bean(JobScheduler.class);
        scheduler.submitAll(backlog);
        // two at a time in the cluster, each for 10 ms
        await().atMost(Duration.ofSeconds(30)).until(() -> PriorityJobs.METERED_STARTED.get() >= 20);

        int before = PriorityJobs.METERED_STARTED.get();
        Instant submitted = Instant.now();
        ScheduledJob raised = nodes.get(1)
                .bean(JobScheduler.class)
                .submit(OneOff.of("metered", null).priority(10));
        await().atMost(Duration.ofSeconds(30)).until(() -> PriorityJobs.STARTED.containsKey(raised.idempotencyKey()));
        Duration waited = Duration.between(submitted, PriorityJobs.STARTED.get(raised.idempotencyKey()));
        int passed = PriorityJobs.BULK_BEFORE.get(raised.idempotencyKey()) - before;
        System.out.printf(
                "[dsched-test] %s: the raised attempt of a limited handler started %d ms after its submission,"
                        + " %d of the backlog starting meanwhile%n",
                kind(), waited.toMillis(), passed);
        assertThat(waited).isLessThan(POLL);
        // claimed as soon as a slot was free, behind no more than the few held ready
        assertThat(passed).isLessThan(40);
    }

    @Test
    void retriesAndReplaysKeepTheirPriorityAndKeyAndAReplayWithoutHistoryTakesItsHandlers() {
        ClusterNode node = start("keep-1");
        JobScheduler scheduler = node.bean(JobScheduler.class);
        ScheduledJob raised = scheduler.submit(
                OneOff.of("fragile", new PriorityJobs.Tenant("acme")).priority(9));
        ScheduledJob plain = scheduler.submit(OneOff.of("fragile", new PriorityJobs.Tenant("globex")));
        // an attempt below the default priority is claimed too, once nothing above it is due
        ScheduledJob low = scheduler.submit(OneOff.of("urgent", null).priority(-3));
        await().atMost(Duration.ofSeconds(30)).until(() -> PriorityJobs.STARTED.containsKey(low.idempotencyKey()));
        JdbcTemplate sql = new JdbcTemplate(this.cluster.observer());
        await().atMost(Duration.ofSeconds(30))
                .until(() -> sql.queryForObject(
                                "SELECT COUNT(*) FROM dsched_dead_letter WHERE job_name = 'fragile' AND status = 'OPEN'",
                                Long.class)
                        == 2);
        // every attempt of a fire, its retry included, has the first one's priority and key
        assertThat(orderOf(sql, raised.idempotencyKey())).containsExactly("1:9:acme", "2:9:acme");
        assertThat(orderOf(sql, plain.idempotencyKey())).containsExactly("1:3:globex", "2:3:globex");

        // a replay keeps those of the fire's last attempt
        DeadLetters letters = node.bean(DeadLetters.class);
        ExecutionRecord replay =
                letters.replay(letter(sql, raised), "ops", "again").orElseThrow();
        assertThat(replay.priority()).isEqualTo(9);
        assertThat(replay.limitKey()).isEqualTo("acme");
        // and with the fire's history deleted, takes its handler's priority and the key of its payload
        sql.update("DELETE FROM dsched_execution WHERE idempotency_key = ?", plain.idempotencyKey());
        ExecutionRecord bare =
                letters.replay(letter(sql, plain), "ops", "again").orElseThrow();
        assertThat(bare.priority()).isEqualTo(3);
        assertThat(bare.limitKey()).isEqualTo("globex");
        assertThat(orderOf(sql, plain.idempotencyKey())).containsExactly("3:3:globex");
    }

    private static List<String> orderOf(JdbcTemplate sql, String idempotencyKey) {
        return sql.query(
                "SELECT attempt, priority, limit_key FROM dsched_execution WHERE idempotency_key = ? ORDER BY attempt",
                (row, number) ->
                        row.getInt("attempt") + ":" + row.getInt("priority") + ":" + row.getString("limit_key"),
                idempotencyKey);
    }

    private static long letter(JdbcTemplate sql, ScheduledJob job) {
        return sql.queryForObject(
                "SELECT id FROM dsched_dead_letter WHERE idempotency_key = ?", Long.class, job.idempotencyKey());
    }

    private ClusterNode start(String id) {
        return this.cluster.start(id, PriorityJobs.class, new HashMap<>(PROPERTIES));
    }
}
