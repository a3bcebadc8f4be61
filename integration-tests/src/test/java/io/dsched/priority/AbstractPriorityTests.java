package io.dsched.priority;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
        assertThat(urgentAfter).as("the urgent attempt's wait").isLessThan(POLL);
        assertThat(raisedAfter).as("the raised attempt's wait").isLessThan(POLL);
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

    private ClusterNode start(String id) {
        return this.cluster.start(id, PriorityJobs.class, new HashMap<>(PROPERTIES));
    }
}
