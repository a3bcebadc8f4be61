package io.dsched.internal.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dsched.execution.ExecutionOrigin;
import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.ExecutionStatus;
import io.dsched.internal.audit.AuditLog;
import io.dsched.internal.engine.DeploymentLock;
import io.dsched.internal.engine.DschedEngine;
import io.dsched.internal.engine.JobRemovals;
import io.dsched.internal.engine.JobSynchronizer;
import io.dsched.internal.management.JobViews;
import io.dsched.internal.management.views.Job;
import io.dsched.internal.store.DeploymentStore;
import io.dsched.internal.store.DschedRepositories;
import io.dsched.test.ClusterNode;
import io.dsched.test.TestCluster;
import io.dsched.test.TestDatabases;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Jobs that leave: a declared job that the newest deployment no longer declares (removed, renamed
 * or set to {@code "-"}) is removed from the cluster once, after the grace, and stays removed
 * while nodes of older deployments run or start again; run against each database by a small
 * subclass.
 */
abstract class AbstractJobRemovalTests {

    private static final Map<String, Object> V1 = Map.of(
            "test.tick.cron", "* * * * * *", "dsched.jobs.removal-grace", "2s", "dsched.recovery.node-timeout", "5s");

    /** v1 with tick renamed to evolving. */
    private static final Map<String, Object> V2 = Map.of(
            "test.evolving.cron",
            "* * * * * *",
            "dsched.jobs.removal-grace",
            "2s",
            "dsched.recovery.node-timeout",
            "5s");

    @RegisterExtension
    final TestCluster cluster = TestCluster.of(this::kind);

    /**
     * Returns the database this suite runs on.
     * @return the kind of database
     */
    protected abstract TestDatabases.Kind kind();

    @BeforeEach
    void resetJobs() {
        TestJobs.reset();
    }

    @Test
    void aRenamedJobIsRemovedOnceNoNodeDeclaresItAndANodeOfTheOldDeploymentDoesNotBringItBack() throws Exception {
        ClusterNode oldNode = start("old-1", V1);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> TestJobs.invocations("tick").size() >= 2);
        ExecutionRecord waiting = waitingTick(Instant.now().plus(1, ChronoUnit.HOURS));
        ClusterNode newNode = start("new-1", V2);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> TestJobs.invocations("evolving").size() >= 2);

        // a rolling deployment in progress: the old node still declares tick, which stays
        assertThat(removalsWithoutGrace(newNode).removeDue()).isEmpty();
        assertThat(storedJob(newNode, "tick")).isTrue();

        oldNode.close();
        // the audit entry records the removal; the trigger goes last
        await().atMost(Duration.ofSeconds(25)).until(() -> removalsAudited() > 0 && !storedJob(newNode, "tick"));
        assertThat(this.cluster.executions().findById(waiting.id())).hasValueSatisfying((row) -> {
            assertThat(row.status()).isEqualTo(ExecutionStatus.CANCELLED);
            assertThat(row.statusReason()).isEqualTo(JobRemovals.REASON);
        });
        assertThat(sql().queryForList("SELECT actor, target FROM dsched_audit WHERE action = ?", JobRemovals.ACTION))
                .singleElement()
                .satisfies((row) -> {
                    assertThat(row.get("actor")).isEqualTo(JobRemovals.ACTOR);
                    assertThat(row.get("target")).isEqualTo("tick");
                });
        assertThat(jobNames(newNode)).contains("evolving").doesNotContain("tick");

        // a node of the old deployment starts again, and stays up: tick stays gone
        int ticks = TestJobs.invocations("tick").size();
        ClusterNode restarted = start("old-2", V1);
        assertThat(storedJob(restarted, "tick")).isFalse();
        assertThat(jobNames(restarted)).doesNotContain("tick");
        await().during(Duration.ofSeconds(3))
                .atMost(Duration.ofSeconds(5))
                .until(() -> TestJobs.invocations("tick").size() == ticks && waitingTicks() == 0);
        assertThat(removalsWithoutGrace(newNode).removeDue()).isEmpty();
        assertThat(removalsAudited()).isEqualTo(1);
    }

    @Test
    void aJobSetToDashIsRemovedByOneNodeOnlyAndANewerDeploymentBringsItBack() throws Exception {
        ClusterNode oldNode = start("old-1", Map.of("test.tick.cron", "* * * * * *"));
        Map<String, Object> tickOff = Map.of("test.tick.cron", "-", "dsched.jobs.removal-grace", "1h");
        ClusterNode one = start("new-1", tickOff);
        ClusterNode two = start("new-2", tickOff);

        // within the grace nothing is removed, even once the last node declaring tick is gone
        oldNode.close();
        assertThat(one.bean(JobRemovals.class).removeDue()).isEmpty();
        assertThat(storedJob(one, "tick")).isTrue();

        // past the grace, two nodes check at the same moment: one removes, once
        CountDownLatch gate = new CountDownLatch(1);
        List<CompletableFuture<List<String>>> checks = new ArrayList<>();
        for (ClusterNode node : List.of(one, two, one, two)) {
            // the node that declared tick left: counted no longer
            JobRemovals removals = removals(node, Duration.ZERO);
            checks.add(CompletableFuture.supplyAsync(() -> {
                try {
                    gate.await();
                    return removals.removeDue();
                } catch (Exception ex) {
                    throw new IllegalStateException(ex);
                }
            }));
        }
        gate.countDown();
        List<String> removed = new ArrayList<>();
        for (CompletableFuture<List<String>> check : checks) {
            removed.addAll(check.get());
        }
        // a check that found the lock taken removes nothing; one that came after finds nothing left
        assertThat(removals(one, Duration.ZERO).removeDue()).isEmpty();
        assertThat(removed).containsExactly("tick");
        assertThat(removalsAudited()).isEqualTo(1);
        assertThat(storedJob(one, "tick")).isFalse();

        // a newer deployment that declares tick again brings it back, firing
        ClusterNode newer =
                start("newer-1", Map.of("test.tick.cron", "* * * * * *", "test.evolving.cron", "0 0 0 1 1 *"));
        assertThat(storedJob(newer, "tick")).isTrue();
        int now = TestJobs.invocations("tick").size();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> TestJobs.invocations("tick").size() >= now + 2);
        assertThat(removalsWithoutGrace(one).removeDue()).isEmpty();
    }

    @Test
    void aDeploymentOfAnotherClusterOrANodeOfAnotherRoleRemovesNoJobItDoesNotDeclare() throws Exception {
        Map<String, Object> shortGrace = Map.of("dsched.jobs.removal-grace", "1s");
        ClusterNode worker = start("worker-1", with(shortGrace, "test.tick.cron", "* * * * * *"));
        ClusterNode other = start(
                "other-1", with(with(shortGrace, "test.once.cron", "0 0 0 1 1 *"), "dsched.cluster.name", "other"));

        // the other cluster's deployment is the newest on the database, not this cluster's: with
        // no node counted as alive, only the newest deployment of this cluster keeps tick
        assertThat(removals(worker, Duration.ZERO).removeDue()).isEmpty();
        assertThat(removals(other, Duration.ZERO).removeDue()).isEmpty();
        assertThat(storedJob(other, "once")).isTrue();

        // a web tier that runs no jobs and declares only evolving starts later: this cluster's
        // newest deployment, without tick; the worker, alive, keeps it
        ClusterNode web =
                start("web-1", with(with(shortGrace, "test.evolving.cron", "0 0 0 1 1 *"), "dsched.run-jobs", "false"));
        assertThat(removalsWithoutGrace(web).removeDue()).isEmpty();
        int before = TestJobs.invocations("tick").size();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> TestJobs.invocations("tick").size() >= before + 2);
        assertThat(storedJob(worker, "tick")).isTrue();
        assertThat(removalsAudited()).isZero();
    }

    @Test
    void removalsCanBeTurnedOff() {
        ClusterNode node = start("node-1", Map.of("dsched.jobs.remove-undeclared", "false"));
        assertThat(node.hasBean(JobRemovals.class)).isFalse();
    }

    private static Map<String, Object> with(Map<String, Object> base, String key, String value) {
        Map<String, Object> properties = new java.util.HashMap<>(base);
        properties.put(key, value);
        return properties;
    }

    /** Removals on a node with no grace; a node still counts until silent for the node timeout. */
    private JobRemovals removalsWithoutGrace(ClusterNode node) {
        return removals(node, Duration.ofSeconds(10));
    }

    private JobRemovals removals(ClusterNode node, Duration nodeTimeout) {
        DschedRepositories repositories = new DschedRepositories(this.cluster.observer(), this.cluster.platform());
        return new JobRemovals(
                () -> node.bean(DschedEngine.class).scheduler(),
                node.bean(DeploymentStore.class),
                repositories.executions(),
                new AuditLog(repositories.aggregates()),
                node.bean(DeploymentLock.class),
                Duration.ZERO,
                nodeTimeout,
                node.id(),
                Clock.systemUTC());
    }

    private ExecutionRecord waitingTick(Instant dueAt) {
        return this.cluster
                .executions()
                .save(ExecutionRecord.waiting(
                        "tick",
                        dueAt,
                        1,
                        "tick@" + dueAt.toEpochMilli(),
                        ExecutionOrigin.MANUAL,
                        "old-1",
                        Instant.now(),
                        dueAt,
                        null,
                        null));
    }

    private long waitingTicks() {
        return sql().queryForObject(
                        "SELECT COUNT(*) FROM dsched_execution WHERE job_name = 'tick'"
                                + " AND status IN ('SCHEDULED', 'RETRY_SCHEDULED')",
                        Long.class);
    }

    private long removalsAudited() {
        return sql().queryForObject(
                        "SELECT COUNT(*) FROM dsched_audit WHERE action = ?", Long.class, JobRemovals.ACTION);
    }

    private static boolean storedJob(ClusterNode node, String job) throws Exception {
        return node.bean(DschedEngine.class).scheduler().checkExists(JobSynchronizer.triggerKey(job));
    }

    private static List<String> jobNames(ClusterNode node) {
        return node.bean(JobViews.class).jobs(Duration.ofMinutes(5)).stream()
                .map(Job::name)
                .toList();
    }

    private JdbcTemplate sql() {
        return new JdbcTemplate(this.cluster.observer());
    }

    private ClusterNode start(String id, Map<String, Object> properties) {
        // the endpoint's jobs, read through its facade
        return this.cluster.start(
                id, TestJobs.class, with(properties, "management.endpoints.web.exposure.include", "dsched"));
    }
}
