package io.dsched.groups;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.dsched.internal.health.DschedHealthIndicator;
import io.dsched.jobs.JobScheduler;
import io.dsched.jobs.OneOff;
import io.dsched.test.ClusterNode;
import io.dsched.test.TestCluster;
import io.dsched.test.TestDatabases;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Node groups: the attempts of a job or handler of a group run only on nodes that serve the
 * group, whichever node fired or submitted them; with no live node of the group they wait, none
 * lost, and run once when one joins. Run against each database by a small subclass.
 */
abstract class AbstractNodeGroupTests {

    private static final Map<String, Object> EVERY_SECOND = Map.of(
            "test.report.cron", "* * * * * *",
            "test.tick.cron", "* * * * * *",
            "dsched.metrics.refresh", "0s",
            "dsched.recovery.node-timeout", "5s",
            "dsched.queue.poll-interval", "200ms");

    @RegisterExtension
    final TestCluster cluster = TestCluster.of(this::kind);

    /**
     * Returns the database this suite runs on.
     * @return the kind of database
     */
    protected abstract TestDatabases.Kind kind();

    @BeforeEach
    void reset() {
        GroupJobs.reset();
    }

    @Test
    void theFiresAndOneOffsOfAGroupRunOnlyOnItsNodesWhicheverNodeFiredOrSubmittedThem() {
        ClusterNode reportsOne = start("reports-1", "reports");
        ClusterNode reportsTwo = start("reports-2", "reports");
        ClusterNode other = start("default-1", "default");
        JobScheduler scheduler = other.bean(JobScheduler.class);
        List<OneOff> renders = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            renders.add(OneOff.of("render", null).withKey("render-" + i));
        }
        scheduler.submitAll(renders);

        await().atMost(Duration.ofSeconds(30))
                .until(() -> GroupJobs.runs("report").size() >= 6
                        && GroupJobs.runs("tick").size() >= 6
                        && GroupJobs.runs("render").size() == 30);

        Set<String> reportNodes = Set.of(reportsOne.id(), reportsTwo.id());
        assertThat(nodesThatRan("report")).isSubsetOf(reportNodes);
        assertThat(nodesThatRan("render")).isSubsetOf(reportNodes);
        assertThat(nodesThatRan("tick")).containsOnly(other.id());
        // the history agrees, and no fire or one-off ran twice
        assertThat(new JdbcTemplate(this.cluster.observer())
                        .queryForList(
                                "SELECT DISTINCT node_id FROM dsched_execution WHERE job_name IN ('report', 'render')"
                                        + " AND status = 'SUCCEEDED'",
                                String.class))
                .isNotEmpty()
                .isSubsetOf(reportNodes);
        assertThat(runsOnMoreThanOneNode("report")).isEmpty();
        assertThat(runsOnMoreThanOneNode("render")).isEmpty();
        assertThat(runsOnMoreThanOneNode("tick")).isEmpty();

        // every node sees which nodes serve which group
        Map<String, Object> health =
                other.bean(DschedHealthIndicator.class).health(true).getDetails();
        assertThat(health).containsEntry("groups", Map.of("default", 1, "reports", 2));
        assertThat(health).doesNotContainKey("stalledGroups");
        assertThat(groupNodes(reportsOne, "reports")).isEqualTo(2.0);
    }

    @Test
    void withNoLiveNodeOfItsGroupAGroupsAttemptsWaitAndEachRunsOnceWhenANodeOfTheGroupJoins() {
        ClusterNode reports = start("reports-1", "reports");
        ClusterNode other = start("default-1", "default");
        await().atMost(Duration.ofSeconds(15))
                .until(() -> GroupJobs.runs("report").size() >= 2);
        reports.close();
        int ranBefore = GroupJobs.runs("report").size();
        assertThat(ranBefore).isPositive();

        JobScheduler scheduler = other.bean(JobScheduler.class);
        for (int i = 0; i < 10; i++) {
            scheduler.submit(OneOff.of("render", null).withKey("waiting-" + i));
        }
        // the group is stalled: its fires and one-offs wait, and the default group goes on
        int ticks = GroupJobs.runs("tick").size();
        await().atMost(Duration.ofSeconds(20))
                .until(() -> waiting("report") >= 3 && GroupJobs.runs("tick").size() >= ticks + 3);
        assertThat(GroupJobs.runs("report")).hasSize(ranBefore);
        assertThat(GroupJobs.runs("render")).isEmpty();
        assertThat(waiting("render")).isEqualTo(10);
        assertThat(new JdbcTemplate(this.cluster.observer())
                        .queryForList(
                                "SELECT DISTINCT status_reason FROM dsched_execution WHERE job_name = 'report'"
                                        + " AND status = 'SCHEDULED'",
                                String.class))
                // besides, perhaps, a fire the stopping node left to the others
                .contains("waiting for a node of group 'reports': node default-1 serves default");
        Map<String, Object> health =
                other.bean(DschedHealthIndicator.class).health(true).getDetails();
        assertThat(health).containsEntry("stalledGroups", List.of("reports"));
        assertThat(groupNodes(other, "reports")).isZero();

        // a node of the group joins: it runs every attempt that waited, each once
        List<String> waitingFires = waitingKeys("report");
        ClusterNode returned = start("reports-2", "reports");
        await().atMost(Duration.ofSeconds(30))
                .until(() -> waiting("render") == 0
                        && GroupJobs.runs("render").size() == 10
                        && GroupJobs.runs("report").keySet().containsAll(waitingFires));
        assertThat(nodesThatRan("render")).containsOnly(returned.id());
        assertThat(runsOnMoreThanOneNode("report")).isEmpty();
        assertThat(runsOnMoreThanOneNode("render")).isEmpty();
        assertThat(GroupJobs.runs("render").values())
                .allSatisfy((nodes) -> assertThat(nodes).hasSize(1));
        assertThat(other.bean(DschedHealthIndicator.class).health(true).getDetails())
                .doesNotContainKey("stalledGroups");
    }

    @Test
    void aNodeMayServeSeveralGroupsAndAGroupNameThatIsNotValidFailsStartUp() {
        ClusterNode both = start("both-1", "reports,default");
        await().atMost(Duration.ofSeconds(15))
                .until(() -> GroupJobs.runs("report").size() >= 2
                        && GroupJobs.runs("tick").size() >= 2);
        assertThat(nodesThatRan("report")).containsOnly(both.id());
        assertThat(new JdbcTemplate(this.cluster.observer())
                        .queryForList(
                                "SELECT group_name FROM dsched_node_group WHERE node_id = ? ORDER BY group_name",
                                String.class,
                                both.id()))
                .containsExactly("default", "reports");

        Map<String, Object> badGroup = new HashMap<>(EVERY_SECOND);
        badGroup.put("test.render.group", "no spaces");
        assertThatThrownBy(() -> this.cluster.start("bad-1", GroupJobs.class, badGroup))
                .hasStackTraceContaining("Jobs.render()")
                .hasStackTraceContaining("group 'no spaces' is not a valid group name");
    }

    @Test
    void aSlowGroupWithWorkersOfItsOwnNeverDelaysTheFiresAndOneOffsOfAnotherGroup() {
        Map<String, Object> properties = new HashMap<>(EVERY_SECOND);
        properties.put("dsched.node.groups", "reports,default");
        properties.put("dsched.threads", "2");
        properties.put("dsched.node.group-threads.reports", "2");
        properties.put("test.slow.cron", "* * * * * *");
        try {
            ClusterNode both = this.cluster.start("both-1", GroupJobs.class, properties);
            JobScheduler scheduler = both.bean(JobScheduler.class);
            for (int i = 0; i < 4; i++) {
                scheduler.submit(OneOff.of("slow-render", null).withKey("slow-" + i));
            }
            // every worker of reports is held, for one-offs, then for fires
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> GroupJobs.runs("slow-render").size() == 2);
            GroupJobs.slowFires = true;
            await().atMost(Duration.ofSeconds(20)).until(() -> slowReportsRunning() == 2);

            // meanwhile the default group's fires start on time and its one-offs at once
            int ticks = GroupJobs.TICK_LAGS.size();
            for (int i = 0; i < 5; i++) {
                scheduler.submit(OneOff.of("quick", null).withKey("quick-" + i));
            }
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> GroupJobs.TICK_LAGS.size() >= ticks + 4
                            && GroupJobs.runs("quick").size() == 5);
            assertThat(GroupJobs.TICK_LAGS.subList(ticks, ticks + 4))
                    .allSatisfy((lag) -> assertThat(lag).isLessThan(Duration.ofMillis(800)));
            assertThat(slowReportsRunning()).isEqualTo(2);
            assertThat(GroupJobs.runs("slow-render")).hasSize(2);

            // the fires of reports that found its workers busy wait for a free one, on any node, and
            // while one waits (for a worker, or for its guard), a job's further fires are skipped: one
            // waiting attempt per job, not one per fire
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> skippedBehindAWaitingOne() >= 3 && waitingForAWorker() >= 1);
            for (String job : List.of("slow-report-1", "slow-report-2", "slow-report-3")) {
                assertThat(waiting(job)).as(job).isLessThanOrEqualTo(1);
            }
            assertThat(new JdbcTemplate(this.cluster.observer())
                            .queryForList(
                                    "SELECT DISTINCT status_reason FROM dsched_execution WHERE job_name LIKE"
                                            + " 'slow-report-%' AND status = 'SCHEDULED' AND status_reason LIKE"
                                            + " 'waiting for a free worker%'",
                                    String.class))
                    .containsExactly(
                            "waiting for a free worker of group 'reports': the workers of group 'reports' on node"
                                    + " both-1 were busy");

            // released, reports runs every attempt that waited for its workers, each once
            List<String> waited = waitingKeysLike("slow-report-%");
            GroupJobs.slow.countDown();
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> GroupJobs.runs("slow-render").size() == 4
                            && ranKeys("slow-report-1", "slow-report-2", "slow-report-3")
                                    .containsAll(waited));
            for (String job : List.of("slow-report-1", "slow-report-2", "slow-report-3", "slow-render", "quick")) {
                assertThat(runsOnMoreThanOneNode(job)).isEmpty();
                assertThat(GroupJobs.runs(job).values())
                        .allSatisfy((nodes) -> assertThat(nodes).hasSize(1));
            }
        } finally {
            GroupJobs.slow.countDown();
        }
    }

    private ClusterNode start(String id, String groups) {
        Map<String, Object> properties = new HashMap<>(EVERY_SECOND);
        properties.put("dsched.node.groups", groups);
        return this.cluster.start(id, GroupJobs.class, properties);
    }

    private static Set<String> nodesThatRan(String job) {
        Set<String> nodes = new TreeSet<>();
        GroupJobs.runs(job).values().forEach(nodes::addAll);
        return nodes;
    }

    private static List<String> runsOnMoreThanOneNode(String job) {
        return GroupJobs.runs(job).entrySet().stream()
                .filter((run) -> run.getValue().size() > 1)
                .map(Map.Entry::getKey)
                .toList();
    }

    private static long slowReportsRunning() {
        return GroupJobs.runs("slow-report-1").size()
                + GroupJobs.runs("slow-report-2").size()
                + GroupJobs.runs("slow-report-3").size();
    }

    private static Set<String> ranKeys(String... jobs) {
        Set<String> keys = new TreeSet<>();
        for (String job : jobs) {
            keys.addAll(GroupJobs.runs(job).keySet());
        }
        return keys;
    }

    private long waitingForAWorker() {
        return new JdbcTemplate(this.cluster.observer())
                .queryForObject(
                        "SELECT COUNT(*) FROM dsched_execution WHERE job_name LIKE 'slow-report-%'"
                                + " AND status = 'SCHEDULED' AND status_reason LIKE 'waiting for a free worker%'",
                        Long.class);
    }

    private long skippedBehindAWaitingOne() {
        return new JdbcTemplate(this.cluster.observer())
                .queryForObject(
                        "SELECT COUNT(*) FROM dsched_execution WHERE job_name LIKE 'slow-report-%'"
                                + " AND status = 'SKIPPED' AND status_reason = 'skipped: the workers of group"
                                + " ''reports'' on node both-1 were busy, and an earlier attempt of the job still"
                                + " waited for one'",
                        Long.class);
    }

    private List<String> waitingKeysLike(String jobs) {
        return new JdbcTemplate(this.cluster.observer())
                .queryForList(
                        "SELECT idempotency_key FROM dsched_execution WHERE job_name LIKE ?"
                                + " AND status IN ('SCHEDULED', 'RETRY_SCHEDULED')",
                        String.class,
                        jobs);
    }

    private long waiting(String job) {
        return new JdbcTemplate(this.cluster.observer())
                .queryForObject(
                        "SELECT COUNT(*) FROM dsched_execution WHERE job_name = ?"
                                + " AND status IN ('SCHEDULED', 'RETRY_SCHEDULED')",
                        Long.class,
                        job);
    }

    private List<String> waitingKeys(String job) {
        return new JdbcTemplate(this.cluster.observer())
                .queryForList(
                        "SELECT idempotency_key FROM dsched_execution WHERE job_name = ?"
                                + " AND status IN ('SCHEDULED', 'RETRY_SCHEDULED')",
                        String.class,
                        job);
    }

    private static double groupNodes(ClusterNode node, String group) {
        return node.bean(MeterRegistry.class)
                .get("dsched.group.nodes")
                .tag("group", group)
                .gauge()
                .value();
    }
}
