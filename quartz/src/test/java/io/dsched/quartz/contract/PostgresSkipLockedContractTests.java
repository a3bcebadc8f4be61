package io.dsched.quartz.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.quartz.JobBuilder.newJob;

import io.dsched.quartz.StartBacklog;
import io.dsched.quartz.contract.Fires.FreeJob;
import io.dsched.quartz.contract.Fires.SerialJob;
import io.dsched.quartz.contract.TestCluster.Store;
import java.sql.Connection;
import java.time.Duration;
import java.util.Date;
import org.junit.jupiter.api.Test;
import org.quartz.JobDetail;
import org.quartz.Scheduler;
import org.quartz.TriggerKey;

/**
 * What the skip-locked store adds to Quartz's contract, on PostgreSQL; and there alone, the
 * completions recorded in groups off the workers (on MySQL and MariaDB each worker records its own).
 */
class PostgresSkipLockedContractTests extends AbstractSkipLockedContractTests {

    @Override
    protected TestDatabase.Kind kind() {
        return TestDatabase.Kind.POSTGRES;
    }

    @Test
    void aWorkerGoesOnToItsNextFireAndItsCompletionWhileTheCompletionOfItsLastWaitsForTheJobsRow() throws Exception {
        Scheduler node = this.cluster.node("n1", Store.SKIP_LOCKED).threads(1).start();
        JobDetail held = newJob(Fires.HeldSerialJob.class).withIdentity("held").build();
        node.scheduleJob(held, AbstractQuartzContractTests.once("held", held, new Date()));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> Fires.of(held.getKey()).size() == 1);

        try (Connection holder = this.cluster.database.connect()) {
            // the job's row alone: by its whole key, and with no gap locks on MariaDB, so that the
            // next job can be stored beside it
            holder.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
            holder.setAutoCommit(false);
            try (java.sql.PreparedStatement lock = holder.prepareStatement("SELECT JOB_NAME FROM " + PREFIX
                    + "JOB_DETAILS WHERE SCHED_NAME = ? AND JOB_NAME = ? AND JOB_GROUP = ? FOR UPDATE")) {
                lock.setString(1, this.cluster.name);
                lock.setString(2, held.getKey().getName());
                lock.setString(3, held.getKey().getGroup());
                lock.executeQuery().close();
            }
            // the run ends; its completion needs the job's row, which the holder has
            Fires.unstick();
            JobDetail next = newJob(FreeJob.class).withIdentity("next").build();
            node.scheduleJob(next, AbstractQuartzContractTests.once("next", next, new Date()));

            // the pool's one worker is free for it all the same, and its completion waits for no
            // other job's row
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> Fires.of(next.getKey()).size() == 1);
            await().atMost(Duration.ofSeconds(10))
                    .until(() -> this.cluster.count(
                                    "SELECT COUNT(*) FROM {P}FIRED_TRIGGERS WHERE SCHED_NAME = ? AND JOB_NAME = ?",
                                    "next")
                            == 0);
            assertThat(this.cluster.count(
                            "SELECT COUNT(*) FROM {P}FIRED_TRIGGERS WHERE SCHED_NAME = ? AND JOB_NAME = ?", "held"))
                    .as("the held job's fire, not yet recorded complete")
                    .isOne();
            holder.rollback();
        }
        await().atMost(Duration.ofSeconds(10))
                .until(() -> this.cluster.count("SELECT COUNT(*) FROM {P}FIRED_TRIGGERS WHERE SCHED_NAME = ?") == 0);
        assertThat(this.cluster.state(TriggerKey.triggerKey("held")))
                .as("a trigger that fires no more")
                .isNull();
    }

    @Test
    void aFiresCompletionWaitsWhileTheNodesFiresAreDueAndNotStarted() throws Exception {
        StartBacklog backlog = new StartBacklog(Duration.ofHours(1));
        Scheduler node = this.cluster
                .node("n1", Store.SKIP_LOCKED)
                .threads(1)
                .backlog(backlog)
                .start();
        backlog.due();
        JobDetail job = newJob(FreeJob.class).withIdentity("job").build();
        node.scheduleJob(job, AbstractQuartzContractTests.once("job", job, new Date()));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> Fires.of(job.getKey()).size() == 1);

        await().during(Duration.ofMillis(300))
                .atMost(Duration.ofSeconds(5))
                .until(() -> this.cluster.count(
                                "SELECT COUNT(*) FROM {P}FIRED_TRIGGERS WHERE SCHED_NAME = ? AND JOB_NAME = ?", "job")
                        == 1);

        backlog.started();
        await().atMost(Duration.ofSeconds(10))
                .until(() -> this.cluster.count("SELECT COUNT(*) FROM {P}FIRED_TRIGGERS WHERE SCHED_NAME = ?") == 0);
    }

    @Test
    void aFireWhoseCompletionFailsHoldsUpNoOtherFiresCompletion() throws Exception {
        Scheduler node = this.cluster.node("n1", Store.SKIP_LOCKED).threads(1).start();
        JobDetail unwritable =
                newJob(Fires.UnwritableDataJob.class).withIdentity("unwritable").build();
        node.scheduleJob(unwritable, AbstractQuartzContractTests.once("unwritable", unwritable, new Date()));
        await().atMost(Duration.ofSeconds(10))
                .until(() -> Fires.of(unwritable.getKey()).size() == 1);

        JobDetail next = newJob(SerialJob.class).withIdentity("next").build();
        node.scheduleJob(next, every300Millis(next, "next"));

        // the other job's fires are recorded complete, one after the other, while the first's fails
        await().atMost(Duration.ofSeconds(10))
                .until(() -> Fires.of(next.getKey()).size() >= 3);
        assertThat(this.cluster.count(
                        "SELECT COUNT(*) FROM {P}FIRED_TRIGGERS WHERE SCHED_NAME = ? AND JOB_NAME = ?", "unwritable"))
                .as("the fire whose completion fails")
                .isOne();
    }
}
