package io.dsched.shards;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.ExecutionStatus;
import io.dsched.internal.deadletter.DeadLetters;
import io.dsched.internal.deadletter.ReplayRefusedException;
import io.dsched.internal.store.DeadLetter;
import io.dsched.internal.store.DeadLetterRepository;
import io.dsched.internal.store.DeadLetterStatus;
import io.dsched.test.ClusterNode;
import io.dsched.test.TestCluster;
import io.dsched.test.TestDatabases;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Broadcast jobs: each fire runs once on every live node that runs the job, each attempt claimed,
 * retried and recorded on its own node alone; a node that joins gets no fire written before it
 * did, one that stops or dies none after, and a dead node's attempt is cancelled, not run
 * elsewhere. Run against each database by a small subclass.
 */
abstract class AbstractBroadcastTests {

    @RegisterExtension
    final TestCluster cluster = TestCluster.of(this::kind);

    /**
     * Returns the database this suite runs on.
     * @return the kind of database
     */
    protected abstract TestDatabases.Kind kind();

    @BeforeEach
    void reset() {
        ShardJobs.reset();
    }

    @AfterEach
    void release() {
        ShardJobs.gate.countDown();
        ShardJobs.held.countDown();
    }

    @Test
    void eachLiveNodeRunsEachFireOnceAJoiningNodeGetsNoEarlierFireAndAStoppedNodeNoLaterOne() {
        // a node timeout longer than the test: no node is judged dead, and one that stops leaves
        // nothing for the others to clear after it
        start("bc-1", "120s");
        ClusterNode second = start("bc-2", "120s");
        // once each sees the other, a fire runs on both
        await().atMost(Duration.ofSeconds(30))
                .until(() -> !firesRunOn(Set.of("bc-1", "bc-2")).isEmpty());

        // the gate holds the next fire's runs on both nodes, and the fire after it is written held,
        // for the two live nodes, while the third starts
        ShardJobs.gate = new CountDownLatch(1);
        Instant held = awaitHeldFire(Instant.MIN);
        assertThat(nodesOf(held)).containsExactlyInAnyOrder("bc-1", "bc-2");
        start("bc-3", "120s");
        ShardJobs.gate.countDown();

        // the held fire runs on the two it was written for, not on the node that joined meanwhile;
        // the fires written since on all three
        await().atMost(Duration.ofSeconds(20)).until(() -> runsOf(held).size() == 2);
        await().atMost(Duration.ofSeconds(30))
                .until(() -> firesRunOn(Set.of("bc-1", "bc-2", "bc-3")).size() >= 2);
        assertThat(runsOf(held)).extracting(ShardJobs.Run::node).containsExactlyInAnyOrder("bc-1", "bc-2");

        // a node leaves while a fire written for it is held: it cancels its attempt as it leaves, and
        // the fire runs on the two others once the fire before it ends there
        ShardJobs.gateOpenFor = Set.of("bc-2");
        ShardJobs.gate = new CountDownLatch(1);
        Instant heldAgain = awaitHeldFire(held);
        assertThat(nodesOf(heldAgain)).containsExactlyInAnyOrder("bc-1", "bc-2", "bc-3");
        second.close();
        ShardJobs.gate.countDown();
        await().atMost(Duration.ofSeconds(20)).until(() -> runsOf(heldAgain).size() == 2);
        assertThat(runsOf(heldAgain)).extracting(ShardJobs.Run::node).containsExactlyInAnyOrder("bc-1", "bc-3");
        assertThat(this.cluster.executions().findByJobName("refresh"))
                .filteredOn((row) ->
                        row.scheduledAt().equals(heldAgain) && row.nodeId().equals("bc-2"))
                .singleElement()
                .satisfies((row) -> {
                    assertThat(row.status()).isEqualTo(ExecutionStatus.CANCELLED);
                    assertThat(row.statusReason()).contains("broadcast");
                });
        // and the fires after it run on the two
        await().atMost(Duration.ofSeconds(30))
                .until(() -> firesRunOn(Set.of("bc-1", "bc-3")).stream()
                                .filter((fire) -> fire.isAfter(heldAgain))
                                .count()
                        >= 2);
        assertThat(ShardJobs.runs("refresh"))
                .filteredOn((run) -> run.fire().isAfter(heldAgain))
                .extracting(ShardJobs.Run::node)
                .doesNotContain("bc-2");

        // every fire ran once on each node it was written for, and on no other: as its shard of as many
        // as the fire has nodes, under the shard's key, recorded with its node
        Map<Instant, List<ShardJobs.Run>> byFire =
                ShardJobs.runs("refresh").stream().collect(Collectors.groupingBy(ShardJobs.Run::fire));
        byFire.forEach((fire, runs) -> {
            assertThat(runs)
                    .as("the runs of the fire at %s", fire)
                    .extracting(ShardJobs.Run::node)
                    .doesNotHaveDuplicates()
                    .isSubsetOf(nodesOf(fire));
            for (ShardJobs.Run run : runs) {
                assertThat(run.key())
                        .isEqualTo(ExecutionRecord.idempotencyKey("refresh", fire, run.shard(), run.shards()));
                assertThat(run.shards()).isEqualTo(nodesOf(fire).size());
                assertThat(run.attempt()).isEqualTo(1);
            }
        });
    }

    @Test
    void theAttemptOfANodeThatDiesIsCancelledNotRunElsewhereAndTheOthersGoOn() {
        start("bc-a", "5s");
        start("bc-b", "5s");
        ClusterNode doomed = start("doomed", "5s");
        // the doomed node's attempt of a fire holds, its run under way
        await().atMost(Duration.ofSeconds(30)).until(() -> ShardJobs.HOLDING.get() >= 1);
        ExecutionRecord holding = this.cluster.executions().findByJobName("refresh").stream()
                .filter((row) ->
                        row.status() == ExecutionStatus.RUNNING && row.nodeId().equals("doomed"))
                .findFirst()
                .orElseThrow();
        Instant fire = holding.scheduledAt();
        doomed.cutOff();

        // judged dead after its node timeout, its attempt is cancelled, and runs nowhere else
        await().atMost(Duration.ofSeconds(40))
                .until(() -> this.cluster.executions().findByIdempotencyKey(holding.idempotencyKey()).stream()
                        .anyMatch((row) -> row.status() == ExecutionStatus.CANCELLED));
        assertThat(this.cluster.executions().findByIdempotencyKey(holding.idempotencyKey()))
                .singleElement()
                .satisfies((row) -> {
                    assertThat(row.nodeId()).isEqualTo("doomed");
                    assertThat(row.statusReason()).contains("broadcast");
                });
        // the fires after go on, on the two live nodes
        Instant judged = Instant.now();
        await().atMost(Duration.ofSeconds(30))
                .until(() -> firesRunOn(Set.of("bc-a", "bc-b")).stream()
                                .filter((later) -> later.isAfter(judged))
                                .count()
                        >= 2);
        assertThat(runsOf(fire))
                .extracting(ShardJobs.Run::node)
                .doesNotHaveDuplicates()
                .doesNotContain("doomed")
                .isSubsetOf("bc-a", "bc-b");
        assertThat(ShardJobs.runs("refresh")).extracting(ShardJobs.Run::node).doesNotContain("doomed");
        // no attempt of the doomed node's was left waiting for it
        await().atMost(Duration.ofSeconds(10)).until(() -> this.cluster.executions().findByJobName("refresh").stream()
                .noneMatch((row) -> row.nodeId().equals("doomed")
                        && (row.status() == ExecutionStatus.SCHEDULED
                                || row.status() == ExecutionStatus.RETRY_SCHEDULED)));
        doomed.close();
    }

    @Test
    void aFailedAttemptIsRetriedOnItsOwnNode() {
        start("warm-1", "30s", "test.warm.cron");
        start("warm-2", "30s", "test.warm.cron");

        // fires each of whose nodes ran its attempt twice: failed, then retried
        await().atMost(Duration.ofSeconds(30)).until(() -> retriedOnBoth().size() >= 2);
        for (Instant fire : retriedOnBoth()) {
            for (ShardJobs.Run first : ShardJobs.runs("warm").stream()
                    .filter((run) -> run.fire().equals(fire) && run.attempt() == 1)
                    .toList()) {
                await().atMost(Duration.ofSeconds(10))
                        .until(() -> this.cluster.executions().findByIdempotencyKey(first.key()).stream()
                                .anyMatch((row) -> row.status() == ExecutionStatus.SUCCEEDED));
                List<ExecutionRecord> attempts = this.cluster.executions().findByIdempotencyKey(first.key()).stream()
                        .sorted(Comparator.comparingInt(ExecutionRecord::attempt))
                        .toList();
                assertThat(attempts)
                        .extracting(ExecutionRecord::status)
                        .containsExactly(ExecutionStatus.FAILED, ExecutionStatus.SUCCEEDED);
                assertThat(attempts)
                        .as("the attempts of %s", first.key())
                        .extracting(ExecutionRecord::nodeId)
                        .containsOnly(first.node());
            }
        }
        // and no run of any fire on another node than its shard's
        ShardJobs.runs("warm").stream()
                .collect(Collectors.groupingBy(ShardJobs.Run::key))
                .forEach((key, runs) -> assertThat(runs)
                        .as("the runs of %s", key)
                        .extracting(ShardJobs.Run::node)
                        .containsOnly(runs.get(0).node()));
    }

    @Test
    void aLetterIsReplayedOnTheNodeItFailedOnAndRefusedWhileThatNodeDoesNotRunTheJob() {
        // declared, with a fire once in four years
        ClusterNode node = start("bc-solo", "30s", "test.refresh.cron", "0 0 0 29 2 *");
        DeadLetterRepository letters = node.bean(DeadLetterRepository.class);
        Instant fire = Instant.now().minusSeconds(60).truncatedTo(java.time.temporal.ChronoUnit.SECONDS);
        DeadLetter gone = letters.save(letter(fire, 1, "gone-node"));
        DeadLetter here = letters.save(letter(fire, 0, "bc-solo"));

        // its node gone, the replay would wait for a node that never takes it: refused, left open
        assertThatThrownBy(() -> node.bean(DeadLetters.class).replay(gone.id(), "operator", "again"))
                .isInstanceOf(ReplayRefusedException.class)
                .hasMessageContaining("gone-node");
        assertThat(letters.findById(gone.id()).orElseThrow().status()).isEqualTo(DeadLetterStatus.OPEN);

        // replayed on its node, which runs it
        assertThat(node.bean(DeadLetters.class).replay(here.id(), "operator", "again"))
                .get()
                .extracting(ExecutionRecord::nodeId)
                .isEqualTo("bc-solo");
        await().atMost(Duration.ofSeconds(20)).until(() -> ShardJobs.runs("refresh").stream()
                .anyMatch((run) -> run.key().equals(here.idempotencyKey())));
    }

    private static DeadLetter letter(Instant fire, int shard, String nodeId) {
        return new DeadLetter(
                null,
                "refresh",
                fire,
                ExecutionRecord.idempotencyKey("refresh", fire, shard, 2),
                1,
                0,
                IllegalStateException.class.getName(),
                "failed",
                null,
                null,
                fire,
                fire,
                nodeId,
                DeadLetterStatus.OPEN,
                null,
                null,
                null);
    }

    /** The fires of {@code warm} each of whose two nodes ran attempts 1 and 2. */
    private List<Instant> retriedOnBoth() {
        Map<Instant, Map<String, Set<Integer>>> attempts = new HashMap<>();
        for (ShardJobs.Run run : ShardJobs.runs("warm")) {
            attempts.computeIfAbsent(run.fire(), (fire) -> new HashMap<>())
                    .computeIfAbsent(run.node(), (node) -> new java.util.HashSet<>())
                    .add(run.attempt());
        }
        return attempts.entrySet().stream()
                .filter((entry) -> entry.getValue().size() == 2
                        && entry.getValue().values().stream().allMatch((tries) -> tries.equals(Set.of(1, 2))))
                .map(Map.Entry::getKey)
                .sorted()
                .toList();
    }

    /** Waits for a fire of {@code refresh} after a time to be written held, and returns it. */
    private Instant awaitHeldFire(Instant after) {
        return await().atMost(Duration.ofSeconds(20))
                .until(
                        () -> this.cluster.executions().findByJobName("refresh").stream()
                                .filter((row) -> row.status() == ExecutionStatus.SCHEDULED
                                        && row.dueAt() == null
                                        && row.scheduledAt().isAfter(after))
                                .map(ExecutionRecord::scheduledAt)
                                .findFirst(),
                        java.util.Optional::isPresent)
                .orElseThrow();
    }

    /** The nodes a fire of {@code refresh} was written for, from its first attempts. */
    private Set<String> nodesOf(Instant fire) {
        return this.cluster.executions().findByJobName("refresh").stream()
                .filter((row) -> row.scheduledAt().equals(fire) && row.attempt() == 1)
                .map(ExecutionRecord::nodeId)
                .collect(Collectors.toSet());
    }

    /** The fires of {@code refresh} that ran on exactly these nodes. */
    private static List<Instant> firesRunOn(Set<String> nodes) {
        Map<Instant, Set<String>> byFire = new HashMap<>();
        for (ShardJobs.Run run : ShardJobs.runs("refresh")) {
            byFire.computeIfAbsent(run.fire(), (fire) -> new java.util.HashSet<>())
                    .add(run.node());
        }
        return byFire.entrySet().stream()
                .filter((entry) -> entry.getValue().equals(nodes))
                .map(Map.Entry::getKey)
                .sorted()
                .toList();
    }

    private static List<ShardJobs.Run> runsOf(Instant fire) {
        return AbstractShardTests.runsOf("refresh", fire);
    }

    private ClusterNode start(String id, String nodeTimeout) {
        return start(id, nodeTimeout, "test.refresh.cron");
    }

    private ClusterNode start(String id, String nodeTimeout, String property) {
        return start(id, nodeTimeout, property, "* * * * * *");
    }

    private ClusterNode start(String id, String nodeTimeout, String property, String cron) {
        Map<String, Object> properties = new HashMap<>();
        properties.put("dsched.recovery.node-timeout", nodeTimeout);
        properties.put("dsched.shutdown.timeout", "1s");
        properties.put(property, cron);
        properties.put("dsched.threads", "4");
        properties.put("dsched.queue.poll-interval", "200ms");
        return this.cluster.start(id, ShardJobs.class, properties);
    }
}
