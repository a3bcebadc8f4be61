package io.dsched.soak;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dsched.definition.Schedule;
import io.dsched.jobs.JobScheduler;
import io.dsched.jobs.OneOff;
import io.dsched.jobs.RecurringJob;
import io.dsched.test.ClusterNode;
import io.dsched.test.TestCluster;
import io.dsched.test.TestDatabases;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Three nodes run recurring jobs and one-off jobs, one run in twenty failing at random, while one
 * node stops without waiting for its running work and starts again. (Killing a node's process is
 * proven with real JVMs by the sample application's crash tests.) Afterwards every attempt is finished, no fire
 * succeeded twice, and every failed fire was retried to success or dead-lettered.
 *
 * <p>The short version runs in {@code ./mvnw verify}; {@code -Dsoak=long} runs it at the size of
 * 200 recurring jobs and 5,000 one-off jobs over two minutes.
 */
abstract class AbstractSoakTests {

    private static final Logger logger = LoggerFactory.getLogger(AbstractSoakTests.class);

    private static final boolean LONG = "long".equals(System.getProperty("soak"));

    private static final int RECURRING = LONG ? 200 : 30;

    private static final int ONE_OFFS = LONG ? 5000 : 600;

    private static final Duration SPREAD = LONG ? Duration.ofSeconds(120) : Duration.ofSeconds(15);

    private static final Duration RATE = LONG ? Duration.ofSeconds(5) : Duration.ofSeconds(2);

    @RegisterExtension
    final TestCluster cluster = TestCluster.of(this::kind);

    protected abstract TestDatabases.Kind kind();

    @BeforeEach
    void resetJobs() {
        SoakJobs.INVOCATIONS.clear();
    }

    @Test
    void nothingIsLostAndNothingSucceedsTwiceUnderFailuresAndANodeDeath() {
        ClusterNode one = start("node-1", true);
        ClusterNode victim = start("node-2", false);
        start("node-3", true);
        JobScheduler jobs = one.bean(JobScheduler.class);
        Instant began = Instant.now();
        for (int i = 0; i < RECURRING; i++) {
            jobs.create(
                    RecurringJob.of("soak-" + i, "soak.recurring", new Schedule.FixedRate(RATE, Duration.ZERO), null));
        }
        List<OneOff> oneOffs = new ArrayList<>();
        for (int i = 0; i < ONE_OFFS; i++) {
            long delay = ThreadLocalRandom.current().nextLong(SPREAD.toMillis());
            oneOffs.add(
                    OneOff.of("soak.oneoff", i).after(Duration.ofMillis(delay)).withKey("job-" + i));
        }
        jobs.submitAll(oneOffs);

        // half-way, one node stops without waiting for its running work, and starts again
        await().atMost(SPREAD.plusSeconds(30)).until(() -> finishedOneOffs() >= ONE_OFFS / 2);
        victim.close();
        start("node-2", true);
        await().atMost(SPREAD.plusSeconds(60)).until(() -> finishedOneOffs() == ONE_OFFS);
        // by the nodes' clocks, less what they may differ from this one's by
        Instant deleting = Instant.now().minusSeconds(1);
        for (int i = 0; i < RECURRING; i++) {
            jobs.delete("soak-" + i);
        }
        await().atMost(Duration.ofSeconds(60)).until(() -> unfinished() == 0);
        Duration took = Duration.between(began, Instant.now());

        JdbcTemplate sql = new JdbcTemplate(this.cluster.observer());
        List<Map<String, Object>> fires =
                sql.queryForList("""
                SELECT idempotency_key, MIN(job_name) AS job_name, COUNT(*) AS attempts,
                       SUM(CASE WHEN status = 'SUCCEEDED' THEN 1 ELSE 0 END) AS successes,
                       SUM(CASE WHEN status = 'DEAD_LETTERED' THEN 1 ELSE 0 END) AS dead,
                       SUM(CASE WHEN status IN ('FAILED', 'TIMED_OUT') THEN 1 ELSE 0 END) AS failures,
                       SUM(CASE WHEN status = 'CANCELLED' AND status_reason = 'job deleted' THEN 1 ELSE 0 END)
                           AS cancelled,
                       SUM(CASE WHEN status = 'SKIPPED' AND status_reason LIKE 'job is not declared%'
                                 AND started_at >= ? THEN 1 ELSE 0 END) AS skipped_deleted
                  FROM dsched_execution WHERE job_name LIKE 'soak%'
                 GROUP BY idempotency_key
                """, this.cluster.platform().dialect().bindable(deleting));
        Map<String, Long> byKey = new LinkedHashMap<>();
        long recurringFires = 0;
        long failures = 0;
        long deadLettered = 0;
        long cancelled = 0;
        long recoveries =
                sql.queryForObject("SELECT COUNT(*) FROM dsched_execution WHERE origin = 'RECOVERY'", Long.class);
        for (Map<String, Object> fire : fires) {
            String key = (String) fire.get("idempotency_key");
            long successes = ((Number) fire.get("successes")).longValue();
            long dead = ((Number) fire.get("dead")).longValue();
            // a retry still waiting when its recurring job was deleted at the end is cancelled; one
            // written after the deletion (a recovery of an attempt running then) is skipped by the
            // node that claims it, which no longer has the job, as is none claimed before
            long cancelledRetry = ((String) fire.get("job_name")).startsWith("soak-")
                    ? ((Number) fire.get("cancelled")).longValue() + ((Number) fire.get("skipped_deleted")).longValue()
                    : 0;
            cancelled += cancelledRetry;
            failures += ((Number) fire.get("failures")).longValue();
            deadLettered += dead;
            assertThat(successes).as("successes of %s", key).isLessThanOrEqualTo(1);
            assertThat(successes + dead + cancelledRetry)
                    .as(() -> "fire " + key + " ended once, in success, a dead letter or, for a deleted"
                            + " job, a cancelled retry; its attempts: "
                            + sql.queryForList(
                                    "SELECT attempt, status, node_id, origin, status_reason FROM dsched_execution"
                                            + " WHERE idempotency_key = ? ORDER BY id",
                                    key))
                    .isEqualTo(1);
            byKey.merge(key, 1L, Long::sum);
            if (((String) fire.get("job_name")).startsWith("soak-")) {
                recurringFires++;
            }
        }
        long oneOffKeys = byKey.keySet().stream()
                .filter((key) -> key.startsWith("soak.oneoff:"))
                .count();
        assertThat(oneOffKeys).as("one-off jobs that reached an end").isEqualTo(ONE_OFFS);
        assertThat(recurringFires).isGreaterThanOrEqualTo((long) RECURRING * 3);
        long openLetters =
                sql.queryForObject("SELECT COUNT(*) FROM dsched_dead_letter WHERE status = 'OPEN'", Long.class);
        assertThat(openLetters).isEqualTo(deadLettered);
        Map<Integer, Long> invocationsPerFire = SoakJobs.INVOCATIONS.values().stream()
                .collect(Collectors.groupingBy((count) -> count.get(), Collectors.counting()));
        logger.info(
                "{} soak: {} recurring jobs, {} one-offs, {} fires ({} recurring), {} failed attempts retried, {}"
                        + " dead-lettered, {} retries cancelled by the jobs' deletion, {} recoveries after the node"
                        + " death, invocations per fire {}, in {}",
                kind(),
                RECURRING,
                ONE_OFFS,
                byKey.size(),
                recurringFires,
                failures,
                deadLettered,
                cancelled,
                recoveries,
                invocationsPerFire,
                took);
    }

    private long finishedOneOffs() {
        return new JdbcTemplate(this.cluster.observer()).queryForObject("""
                SELECT COUNT(DISTINCT idempotency_key) FROM dsched_execution
                 WHERE job_name = 'soak.oneoff' AND status IN ('SUCCEEDED', 'DEAD_LETTERED')
                """, Long.class);
    }

    private long unfinished() {
        return new JdbcTemplate(this.cluster.observer()).queryForObject("""
                SELECT COUNT(*) FROM dsched_execution
                 WHERE status IN ('SCHEDULED', 'RETRY_SCHEDULED', 'RUNNING')
                """, Long.class);
    }

    private ClusterNode start(String id, boolean waitForJobs) {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("dsched.queue.poll-interval", "100ms");
        properties.put("dsched.recovery.heartbeat-interval", "500ms");
        properties.put("dsched.recovery.node-timeout", "3s");
        properties.put("dsched.shutdown.wait-for-jobs", String.valueOf(waitForJobs));
        properties.put("spring.datasource.hikari.maximum-pool-size", "30");
        ClusterNode node = this.cluster.start(id, SoakJobs.class, properties);
        return node;
    }
}
