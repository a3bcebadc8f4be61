package io.dsched.jitter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dsched.execution.ExecutionRecord;
import io.dsched.internal.execution.Jitter;
import io.dsched.test.TestCluster;
import io.dsched.test.TestDatabases;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Staggered fires: {@value JitterJobs#JOBS} jobs on one cron with a jitter window of 10 s, on three
 * nodes, start spread over the window at offsets of their own, the same whichever node fired them,
 * each fire once, none before its offset time, and the history keeps each fire's scheduled time.
 * Run against each database by a small subclass.
 */
abstract class AbstractJitterTests {

    private static final Duration WINDOW = Duration.ofSeconds(10);

    /**
     * How late after its time a fire of the many jobs may be queued for its offsets to be judged: a
     * fire queued later has every job of an offset under that lateness due at once, more than the
     * spread below allows.
     */
    private static final Duration QUEUED_WITHIN = Duration.ofSeconds(1);

    /** How many complete fires the nodes may have queued late before one on time. */
    private static final int LATE_FIRES_AT_MOST = 3;

    @RegisterExtension
    final TestCluster cluster = TestCluster.of(this::kind);

    /**
     * Returns the database this suite runs on.
     * @return the kind of database
     */
    protected abstract TestDatabases.Kind kind();

    @BeforeEach
    void reset() {
        JitterJobs.reset();
    }

    @Test
    void theFiresOfManyJobsOnOneCronSpreadOverTheWindowEachOnceAtOneOffsetWhicheverNodeFiredThem() {
        for (int i = 1; i <= 3; i++) {
            Map<String, Object> properties = new HashMap<>();
            properties.put("test.cron", "*/15 * * * * *");
            properties.put("test.jitter", "10s");
            properties.put("dsched.threads", "20");
            properties.put("dsched.queue.poll-interval", "200ms");
            properties.put("dsched.metrics.refresh", "0s");
            // the 200 fires of a second are recorded up to 5 s ahead (PostgreSQL, MariaDB), so that a
            // loaded machine still queues them before their offsets; H2 records each at its time
            properties.put("dsched.cluster.fire-ahead", "5s");
            this.cluster.start("spread-" + i, JitterJobs.class, properties);
        }

        // the first fire every job ran, of those after the three nodes had started, that the nodes
        // queued on time: a machine starved of CPU can queue the 200 fires of a second seconds late,
        // which proves nothing about the offsets; more late fires than a few fail the test
        Instant started = Instant.now();
        Map<Instant, Boolean> onTime = new HashMap<>();
        await().atMost(Duration.ofSeconds(80))
                .pollInterval(Duration.ofMillis(500))
                .until(() -> firstOnTime(started, onTime).isPresent());
        Instant fire = firstOnTime(started, onTime).orElseThrow();
        assertThat(onTime.entrySet().stream()
                        .filter((judged) -> judged.getKey().isBefore(fire))
                        .map(Map.Entry::getKey))
                .as("complete fires queued late before the one on time")
                .hasSizeLessThanOrEqualTo(LATE_FIRES_AT_MOST);
        List<JitterJobs.Run> runs = JitterJobs.RUNS.values().stream()
                .flatMap(List::stream)
                .filter((run) -> run.scheduledAt().equals(fire))
                .toList();
        assertThat(runs).hasSize(JitterJobs.JOBS);
        assertThat(JitterJobs.RUNS.values()).allSatisfy((ran) -> assertThat(ran).hasSize(1));

        // spread over the window: no second of it starts more than three times the mean
        Map<Long, Long> perSecond = runs.stream()
                .collect(Collectors.groupingBy(
                        (run) -> Duration.between(fire, run.startedAt()).toSeconds(), Collectors.counting()));
        long mean = JitterJobs.JOBS / WINDOW.toSeconds();
        assertThat(perSecond.values()).allSatisfy((count) -> assertThat(count).isLessThanOrEqualTo(3 * mean));
        assertThat(perSecond.keySet()).as("seconds of the window with starts").hasSizeGreaterThanOrEqualTo(9);

        // each at its own offset, the same whichever node fired it, and not before it
        Set<String> ranOn = new TreeSet<>();
        int atTheirOffset = 0;
        for (int i = 0; i < JitterJobs.JOBS; i++) {
            String job = "spread-" + i;
            ExecutionRecord row = this.cluster
                    .executions()
                    .findByIdempotencyKey(ExecutionRecord.idempotencyKey(job, fire))
                    .get(0);
            assertThat(row.scheduledAt()).as(job).isEqualTo(fire);
            // due at its offset time, or, if that had passed when the fire was queued, at once (the
            // fire was queued on time, above; most fires must be due exactly at their offset, below)
            Instant offset = Jitter.startOf(job, fire, WINDOW);
            assertThat(row.dueAt()).as(job).isAfterOrEqualTo(offset);
            if (row.dueAt().equals(offset)) {
                atTheirOffset++;
            }
            assertThat(row.startedAt()).as(job).isAfterOrEqualTo(row.dueAt());
            // started on time from its offset: its lag counts from there
            assertThat(Duration.between(row.dueAt(), row.startedAt())).as(job).isLessThan(Duration.ofSeconds(3));
            ranOn.add(row.nodeId());
        }
        assertThat(ranOn).as("the nodes that ran them").hasSizeGreaterThan(1);
        assertThat(atTheirOffset).as("fires due exactly at their offset").isGreaterThan(JitterJobs.JOBS * 3 / 4);
        // by the JVM's clock, which differs from the database's by the node's estimate of it
        for (JitterJobs.Run run : runs) {
            assertThat(run.startedAt())
                    .isAfterOrEqualTo(Jitter.startOf(run.job(), fire, WINDOW).minusMillis(100));
        }
    }

    /** The earliest fire after a time that every job has run and the nodes queued on time, if any. */
    private Optional<Instant> firstOnTime(Instant after, Map<Instant, Boolean> onTime) {
        Map<Instant, Long> perFire = JitterJobs.RUNS.values().stream()
                .flatMap(List::stream)
                .collect(Collectors.groupingBy(JitterJobs.Run::scheduledAt, Collectors.counting()));
        return perFire.entrySet().stream()
                .filter((entry) -> entry.getKey().isAfter(after) && entry.getValue() == JitterJobs.JOBS)
                .map(Map.Entry::getKey)
                .sorted()
                .filter((fire) -> onTime.computeIfAbsent(fire, this::queuedOnTime))
                .findFirst();
    }

    /**
     * Says whether the nodes queued each job's attempt at a fire within {@link #QUEUED_WITHIN} of its
     * time: no later than its offset time or, where that had passed, than the fire's time and the bound.
     */
    private boolean queuedOnTime(Instant fire) {
        for (int i = 0; i < JitterJobs.JOBS; i++) {
            String job = "spread-" + i;
            Instant due = this.cluster
                    .executions()
                    .findByIdempotencyKey(ExecutionRecord.idempotencyKey(job, fire))
                    .get(0)
                    .dueAt();
            Instant offset = Jitter.startOf(job, fire, WINDOW);
            if (due.isAfter(offset) && due.isAfter(fire.plus(QUEUED_WITHIN))) {
                return false;
            }
        }
        return true;
    }
}
