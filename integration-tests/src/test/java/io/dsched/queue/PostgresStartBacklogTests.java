package io.dsched.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dsched.annotation.DistributedScheduled;
import io.dsched.annotation.JobHandler;
import io.dsched.execution.JobContext;
import io.dsched.jobs.JobScheduler;
import io.dsched.jobs.OneOff;
import io.dsched.quartz.StartBacklog;
import io.dsched.test.ClusterNode;
import io.dsched.test.TestCluster;
import io.dsched.test.TestDatabases;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A node's writes that can wait leave the database to the starts of its fires that are due: while
 * a fire waits for a worker, the outcome of an attempt that succeeded meanwhile stays unwritten,
 * and it is written once that fire has started. Two fires of the same instant on a node of one
 * worker, the first of which holds the worker, make the second wait as long as the test likes.
 */
class PostgresStartBacklogTests {

    @RegisterExtension
    final TestCluster cluster = TestCluster.on(TestDatabases.Kind.POSTGRESQL);

    @BeforeEach
    void reset() {
        BacklogJobs.reset();
    }

    @AfterEach
    void release() {
        BacklogJobs.release.countDown();
    }

    @Test
    void theOutcomeOfASuccessIsWrittenOnceTheFiresDueBeforeItHaveStarted() {
        ClusterNode node = start();
        StartBacklog backlog = node.bean(StartBacklog.class);

        // one holding fire runs on the node's one worker; the other of the same instant waits
        await().atMost(Duration.ofSeconds(20)).until(() -> backlog.waiting() == 1);
        long note =
                node.bean(JobScheduler.class).submit(OneOff.of("note", null)).executionId();
        await().atMost(Duration.ofSeconds(10)).until(() -> BacklogJobs.noted.contains(note));

        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(5)).until(() -> "RUNNING"
                .equals(status(note)));

        BacklogJobs.release.countDown();
        await().atMost(Duration.ofSeconds(10)).until(() -> "SUCCEEDED".equals(status(note)));
    }

    @Test
    void aNextRunOfAGuardedJobHasTheOutcomeThatReleasesItsGuardWrittenAtOnce() {
        ClusterNode node = start();
        StartBacklog backlog = node.bean(StartBacklog.class);
        await().atMost(Duration.ofSeconds(20)).until(() -> backlog.waiting() == 1);
        JobScheduler scheduler = node.bean(JobScheduler.class);

        long first = scheduler.trigger("guarded").executionId();
        await().atMost(Duration.ofSeconds(10)).until(() -> BacklogJobs.noted.contains(first));
        // its success, and the release of its guard with it, waits for the fire that cannot start
        assertThat(status(first)).isEqualTo("RUNNING");
        long second = scheduler.trigger("guarded").executionId();

        // the second run finds the guard held by the first's unwritten outcome, and has it written
        await().atMost(Duration.ofSeconds(10)).until(() -> BacklogJobs.noted.contains(second));
        assertThat(status(first)).isEqualTo("SUCCEEDED");
        assertThat(backlog.waiting()).isEqualTo(1);
    }

    private ClusterNode start() {
        return this.cluster.start(
                "n1",
                BacklogJobs.class,
                Map.of(
                        "dsched.threads", 1,
                        // both fires of an instant in the pool before it, though its one worker is busy then
                        "dsched.cluster.fire-ahead", "1s",
                        "dsched.cluster.writes-wait-for-starts", "1h",
                        "dsched.history.cleanup-cron", "0 0 0 1 1 *"));
    }

    private String status(long id) {
        return new JdbcTemplate(this.cluster.observer())
                .queryForObject(
                        this.cluster.tables().sql("SELECT status FROM dsched_execution WHERE id = ?"),
                        String.class,
                        id);
    }

    /** Two jobs that fire together and hold their worker until released, and a one-off handler. */
    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class BacklogJobs {

        static volatile CountDownLatch release = new CountDownLatch(1);

        static final Set<Long> noted = ConcurrentHashMap.newKeySet();

        static void reset() {
            release = new CountDownLatch(1);
            noted.clear();
        }

        @Bean
        Jobs backlogJobs() {
            return new Jobs();
        }

        /** The jobs. */
        public static class Jobs {

            @DistributedScheduled(name = "hold-1", cron = "*/2 * * * * *")
            public void hold1() throws InterruptedException {
                release.await(1, TimeUnit.MINUTES);
            }

            @DistributedScheduled(name = "hold-2", cron = "*/2 * * * * *")
            public void hold2() throws InterruptedException {
                release.await(1, TimeUnit.MINUTES);
            }

            @DistributedScheduled(name = "guarded", cron = "0 0 0 1 1 *")
            public void guarded(JobContext context) {
                noted.add(context.executionId());
            }

            @JobHandler("note")
            public void note(JobContext context) {
                noted.add(context.executionId());
            }
        }
    }
}
