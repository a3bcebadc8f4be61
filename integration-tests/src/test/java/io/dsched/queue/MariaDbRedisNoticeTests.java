package io.dsched.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dsched.internal.health.DschedHealthIndicator;
import io.dsched.internal.queue.NoticeHearing;
import io.dsched.internal.queue.RedisNoticeListener;
import io.dsched.jobs.JobScheduler;
import io.dsched.jobs.OneOff;
import io.dsched.test.ClusterNode;
import io.dsched.test.RedisServer;
import io.dsched.test.TestCluster;
import io.dsched.test.TestDatabases;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Notices through Redis on MariaDB, which has none of its own: a one-off submitted, a run
 * triggered by hand on one node starts at once on another, through a real Redis server of the
 * test's own; every node polls only once an hour, so nothing but a notice can start an attempt
 * within the tests' bounds. While Redis is away, submissions still succeed; once it is back, the
 * nodes subscribe again, run what was submitted meanwhile and hear the notices.
 */
class MariaDbRedisNoticeTests {

    /**
     * Far less than the nodes' poll interval of an hour, so that only a notice starts an attempt
     * within it; and far more than a start that a notice brings about takes, even on a machine whose
     * cores are shared by many times as many busy threads, where one takes seconds.
     */
    private static final Duration AT_ONCE = Duration.ofSeconds(10);

    @RegisterExtension
    final TestCluster cluster = TestCluster.on(TestDatabases.Kind.MARIADB);

    private RedisServer redis;

    @BeforeEach
    void startRedis() throws Exception {
        NoticeJobs.reset();
        this.redis = RedisServer.start();
    }

    @AfterEach
    void stopRedis() throws Exception {
        // the nodes first: a node that stops closes its connections to Redis
        this.cluster.close();
        this.redis.close();
    }

    @Test
    void oneOffsAndATriggerByHandOnANodeThatRunsNoJobsStartAtOnceOnANodeThatDoes() {
        ClusterNode api = start("api", Map.of("dsched.run-jobs", false));
        ClusterNode worker = start("worker", Map.of());
        awaitHearing(worker, NoticeHearing.NOTICES);
        assertThat(api.bean(RedisNoticeListener.class).hearing()).isEqualTo(NoticeHearing.OFF);
        JobScheduler scheduler = api.bean(JobScheduler.class);
        Map<Long, Instant> submitted = new LinkedHashMap<>();
        for (int i = 0; i < 5; i++) {
            Instant before = Instant.now();
            submitted.put(scheduler.submit(OneOff.of("note", null)).executionId(), before);
            awaitStarted(submitted.keySet(), AT_ONCE);
        }
        Instant before = Instant.now();
        List<OneOff> batch = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            batch.add(OneOff.of("note", null));
        }
        scheduler.submitAll(batch).forEach((job) -> submitted.put(job.executionId(), before));
        Instant triggered = Instant.now();
        submitted.put(scheduler.trigger("yearly").executionId(), triggered);

        awaitStarted(submitted.keySet(), AT_ONCE);
        submitted.forEach((id, at) -> {
            NoticeJobs.Started started = NoticeJobs.STARTED.get(id);
            assertThat(started.node()).isEqualTo("worker");
            assertThat(Duration.between(at, started.at())).isLessThan(AT_ONCE);
        });
    }

    @Test
    void aNodeStartsWhileRedisIsAwayPollsAndOnceRedisIsThereSubscribesHearsNoticesAndRunsWhatFellDueMeanwhile()
            throws Exception {
        this.redis.stop();
        ClusterNode api = start("api", Map.of("dsched.run-jobs", false));
        ClusterNode worker = start("worker", Map.of());
        awaitHearing(worker, NoticeHearing.POLLING);
        // its health says so, and its gauge
        assertThat(worker.bean(DschedHealthIndicator.class).health(true).getDetails())
                .containsEntry("notices", "polling");
        assertThat(worker.bean(MeterRegistry.class)
                        .get("dsched.node.notices")
                        .tag("state", "polling")
                        .gauge()
                        .value())
                .isOne();
        JobScheduler scheduler = api.bean(JobScheduler.class);
        // the notice cannot be sent: the submission succeeds all the same
        long meanwhile = scheduler.submit(OneOff.of("note", null)).executionId();

        this.redis.startAgain();
        // the worker polls once an hour and tries to subscribe every 5 s: only the wake-up of its
        // subscription starts it
        awaitStarted(List.of(meanwhile), Duration.ofSeconds(15));
        assertThat(worker.bean(RedisNoticeListener.class).hearing()).isEqualTo(NoticeHearing.NOTICES);
        assertThat(worker.bean(DschedHealthIndicator.class).health(true).getDetails())
                .containsEntry("notices", "notices");
        assertThat(worker.bean(MeterRegistry.class)
                        .get("dsched.node.notices")
                        .tag("state", "notices")
                        .gauge()
                        .value())
                .isOne();
        Instant before = Instant.now();
        long next = scheduler.submit(OneOff.of("note", null)).executionId();
        awaitStarted(List.of(next), AT_ONCE);
        assertThat(Duration.between(before, NoticeJobs.STARTED.get(next).at())).isLessThan(AT_ONCE);
    }

    @Test
    void whileRedisIsAwaySubmissionsSucceedAndOnceItIsBackTheNodesHearNoticesAgain() throws Exception {
        ClusterNode api = start("api", Map.of("dsched.run-jobs", false));
        ClusterNode worker = start("worker", Map.of());
        awaitHearing(worker, NoticeHearing.NOTICES);
        JobScheduler scheduler = api.bean(JobScheduler.class);

        this.redis.stop();
        long whileAway = scheduler.submit(OneOff.of("note", null)).executionId();
        this.redis.startAgain();

        // the worker polls once an hour: the Redis client connects and subscribes again by
        // itself, and either the notice it held or the wake-up of the subscription starts it
        awaitStarted(List.of(whileAway), Duration.ofSeconds(40));
        Instant before = Instant.now();
        long next = scheduler.submit(OneOff.of("note", null)).executionId();
        awaitStarted(List.of(next), AT_ONCE);
        assertThat(Duration.between(before, NoticeJobs.STARTED.get(next).at())).isLessThan(AT_ONCE);
        assertThat(NoticeJobs.STARTED.get(whileAway).node()).isEqualTo("worker");
    }

    private void awaitHearing(ClusterNode node, NoticeHearing hearing) {
        RedisNoticeListener listener = node.bean(RedisNoticeListener.class);
        await().atMost(Duration.ofSeconds(20)).until(() -> listener.hearing() == hearing);
    }

    private static void awaitStarted(Iterable<Long> ids, Duration within) {
        await().atMost(within).until(() -> {
            for (Long id : ids) {
                if (!NoticeJobs.STARTED.containsKey(id)) {
                    return false;
                }
            }
            return true;
        });
    }

    private ClusterNode start(String id, Map<String, Object> properties) {
        Map<String, Object> all = new LinkedHashMap<>();
        all.put("dsched.queue.poll-interval", "1h");
        all.put("dsched.queue.notify-through", "redis");
        all.put("test.redis.port", this.redis.port());
        all.put("dsched.history.cleanup-cron", "0 0 0 1 1 *");
        all.putAll(properties);
        return this.cluster.start(id, RedisNoticeJobs.class, all);
    }

    /** The notice tests' application, with a connection to the test's Redis. */
    @Configuration(proxyBeanMethods = false)
    @Import(NoticeJobs.class)
    static class RedisNoticeJobs {

        @Bean
        LettuceConnectionFactory redisConnectionFactory(@Value("${test.redis.port}") int port) {
            return new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", port));
        }
    }
}
