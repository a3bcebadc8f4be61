package io.dsched.quartz.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.quartz.JobBuilder.newJob;

import io.dsched.quartz.contract.Fires.SerialJob;
import io.dsched.quartz.contract.TestCluster.Store;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.quartz.JobDetail;
import org.quartz.Scheduler;
import org.quartz.Trigger;

/**
 * The contract on H2, which has no {@code SKIP LOCKED}: dsched's {@code ClusterJobStore} on
 * Quartz's locking. Quartz's own store is run here as the control where it breaks the contract:
 * that depends on Quartz's logic, not on the database.
 */
class H2QuartzContractTests extends AbstractQuartzContractTests {

    @Override
    protected TestDatabase.Kind kind() {
        return TestDatabase.Kind.H2;
    }

    @Override
    protected Store store() {
        return Store.CLUSTER;
    }

    @Test
    void stockQuartzRunsTheSiblingOfARunningJobThatDisallowsConcurrencyAtOnce() throws Exception {
        JobDetail job = newJob(SerialJob.class)
                .withIdentity("serial")
                .usingJobData("workMillis", "1500")
                .storeDurably()
                .build();
        Instant due = Instant.now().plusSeconds(2);
        Trigger first = once("first", job, at(due));
        Trigger second = once("second", job, at(due));
        Scheduler one = this.cluster
                .node("n1", Store.STOCK)
                .idleWait(6000)
                .misfireThreshold(5000)
                .create();
        Scheduler two = this.cluster
                .node("n2", Store.STOCK)
                .idleWait(6000)
                .misfireThreshold(5000)
                .create();
        one.addJob(job, false);
        one.scheduleJob(first);
        one.scheduleJob(second);
        one.start();
        await().atMost(Duration.ofSeconds(2)).until(() -> acquired(first, second) == 1);
        two.start();
        await().atMost(Duration.ofSeconds(2)).until(() -> acquired(first, second) == 2);

        // the node that finds its trigger blocked puts it back to WAITING: it fires at once
        await().atMost(Duration.ofSeconds(10))
                .until(() -> Fires.of(job.getKey()).size() == 2);
        assertThat(Fires.mostAtOnce(job.getKey())).as("runs at once").isEqualTo(2);
    }
}
