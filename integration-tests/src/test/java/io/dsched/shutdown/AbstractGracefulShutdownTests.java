package io.dsched.shutdown;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.ExecutionStatus;
import io.dsched.jobs.JobScheduler;
import io.dsched.test.ClusterNode;
import io.dsched.test.TestCluster;
import io.dsched.test.TestDatabases;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A stopping node takes no new fires, lets its running jobs finish within
 * {@code dsched.shutdown.timeout}, and stops in time when they do not. Run against each database
 * by a small subclass.
 */
abstract class AbstractGracefulShutdownTests {

    @RegisterExtension
    final TestCluster cluster = TestCluster.of(this::kind);

    protected abstract TestDatabases.Kind kind();

    @BeforeEach
    void resetJobs() {
        ShutdownJobs.reset();
    }

    @AfterEach
    void releaseJobs() {
        ShutdownJobs.release.countDown();
    }

    @Test
    void runningJobsFinishAndAreRecordedBeforeTheNodeStops() throws Exception {
        ClusterNode node = start("30s");
        await().atMost(Duration.ofSeconds(20)).until(() -> ShutdownJobs.started.size() == 1);
        node.bean(JobScheduler.class).trigger("triggered");
        await().atMost(Duration.ofSeconds(20)).until(() -> ShutdownJobs.started.size() == 2);

        Thread closer = new Thread(node::close, "test-closer");
        closer.start();
        await().during(Duration.ofSeconds(2))
                .atMost(Duration.ofSeconds(5))
                .until(() -> closer.isAlive() && ShutdownJobs.started.size() == 2);
        ShutdownJobs.release.countDown();
        closer.join(Duration.ofSeconds(20).toMillis());

        assertThat(closer.isAlive()).isFalse();
        assertThat(ShutdownJobs.finished).containsExactlyInAnyOrderElementsOf(ShutdownJobs.started);
        List<ExecutionRecord> runs = new ArrayList<>(this.cluster.executions().findByJobName("busy"));
        runs.addAll(this.cluster.executions().findByJobName("triggered"));
        assertThat(runs).hasSize(2).allSatisfy((run) -> assertThat(run.status()).isEqualTo(ExecutionStatus.SUCCEEDED));
    }

    @Test
    void aRunOnTheQueueAloneHoldsTheNodeUntilItFinishes() throws Exception {
        ClusterNode node = this.cluster.start(
                "node-1",
                ShutdownJobs.class,
                Map.of("test.busy.cron", "0 0 0 1 1 *", "dsched.shutdown.timeout", "30s"));
        node.bean(JobScheduler.class).trigger("triggered");
        await().atMost(Duration.ofSeconds(20)).until(() -> ShutdownJobs.started.size() == 1);

        Thread closer = new Thread(node::close, "test-closer");
        closer.start();
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(5)).until(closer::isAlive);
        ShutdownJobs.release.countDown();
        closer.join(Duration.ofSeconds(20).toMillis());

        assertThat(closer.isAlive()).isFalse();
        assertThat(ShutdownJobs.finished).hasSize(1);
        assertThat(this.cluster.executions().findByJobName("triggered"))
                .extracting(ExecutionRecord::status)
                .containsExactly(ExecutionStatus.SUCCEEDED);
    }

    @Test
    void aNodeStopsWithinTheTimeoutWhenAJobRunsOnAndLeavesItsAttemptToBeTakenOver() throws Exception {
        ClusterNode node = start("1s");
        await().atMost(Duration.ofSeconds(20)).until(() -> ShutdownJobs.started.size() == 1);

        long start = System.nanoTime();
        node.close();
        Duration stopping = Duration.ofNanos(System.nanoTime() - start);

        assertThat(stopping).isLessThan(Duration.ofSeconds(8));
        assertThat(ShutdownJobs.finished).isEmpty();
        assertThat(this.cluster.executions().findByJobName("busy"))
                .extracting(ExecutionRecord::status)
                .containsExactly(ExecutionStatus.RUNNING);
    }

    private ClusterNode start(String timeout) {
        return this.cluster.start(
                "node-1",
                ShutdownJobs.class,
                Map.of("dsched.shutdown.timeout", timeout, "dsched.queue.poll-interval", "100ms"));
    }
}
