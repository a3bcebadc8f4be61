package io.dsched.internal.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.dsched.execution.ExecutionRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The membership's decisions on the node table as read: who is alive, when this node judges
 * others, when a node id is still in use by another process, and which of its own attempts this
 * node takes back. Times are given, not read, so each rule is proved on its boundary.
 */
class LivenessTests {

    private static final Duration HEARTBEAT = Duration.ofSeconds(1);

    private static final Duration NODE_TIMEOUT = Duration.ofSeconds(10);

    private static final Instant NOW = Instant.parse("2031-01-01T00:00:00Z");

    private final Liveness liveness = new Liveness("node-1", HEARTBEAT, NODE_TIMEOUT);

    @Test
    void aNodeTimeoutShorterThanTwoHeartbeatsIsRefusedNamingBothProperties() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new Liveness("node-1", HEARTBEAT, Duration.ofMillis(1999)))
                .withMessageContaining("dsched.recovery.node-timeout")
                .withMessageContaining("dsched.recovery.heartbeat-interval");
        new Liveness("node-1", HEARTBEAT, Duration.ofSeconds(2));
    }

    @Test
    void aNodeJudgesOthersOnlyAfterAWholeNodeTimeoutOfSuccessfulHeartbeats() {
        assertThat(this.liveness.judgesOthers(null, NOW))
                .as("heartbeat failing")
                .isFalse();
        assertThat(this.liveness.judgesOthers(NOW, NOW))
                .as("just reached the database")
                .isFalse();
        assertThat(this.liveness.judgesOthers(NOW.minus(NODE_TIMEOUT).plusMillis(1), NOW))
                .isFalse();
        assertThat(this.liveness.judgesOthers(NOW.minus(NODE_TIMEOUT), NOW)).isTrue();
    }

    @Test
    void theLiveNodesAreThoseSeenWithinTheNodeTimeoutAndThisNodeAlways() {
        List<NodeSighting> sightings = List.of(
                seen("node-2", Duration.ZERO),
                seen("node-3", NODE_TIMEOUT),
                seen("node-4", NODE_TIMEOUT.plusMillis(1)),
                // this node's own row may be stale while its heartbeat is failing: it is alive
                seen("node-1", NODE_TIMEOUT.multipliedBy(3)));
        assertThat(this.liveness.liveNodes(sightings)).containsExactlyInAnyOrder("node-1", "node-2", "node-3");
        assertThat(this.liveness.liveNodes(List.of())).containsExactly("node-1");
    }

    @Test
    void aNodeIdIsInUseByAnotherProcessWhileItsHeartbeatIsAtMostTwoIntervalsOld() {
        assertThat(this.liveness.liveTwin(List.of(seen("node-1", HEARTBEAT.multipliedBy(2)))))
                .isPresent();
        assertThat(this.liveness.liveTwin(
                        List.of(seen("node-1", HEARTBEAT.multipliedBy(2).plusMillis(1)))))
                .isEmpty();
        assertThat(this.liveness.liveTwin(List.of(seen("node-2", Duration.ZERO))))
                .isEmpty();
    }

    @Test
    void anOwnAttemptIsStaleWhenNoWorkerHoldsItAndItStartedOverANodeTimeoutAgo() {
        ExecutionRecord old = running(7, NOW.minus(NODE_TIMEOUT).minusMillis(1));
        ExecutionRecord young = running(8, NOW.minus(NODE_TIMEOUT));
        assertThat(this.liveness.isStale(old, Set.of(), NOW)).isTrue();
        assertThat(this.liveness.isStale(old, Set.of(7L), NOW))
                .as("held by a worker")
                .isFalse();
        assertThat(this.liveness.isStale(young, Set.of(), NOW))
                .as("exactly a node timeout old")
                .isFalse();
    }

    @Test
    void theReasonOfATakeoverSaysHowLongTheDeadNodeWasUnseenOrThatItIsGone() {
        List<NodeSighting> sightings = List.of(seen("node-2", Duration.ofSeconds(42)));
        assertThat(Liveness.deathOf("node-2", sightings))
                .isEqualTo("node node-2 died while running it (unseen for 42s)");
        assertThat(Liveness.deathOf("node-3", sightings)).isEqualTo("node node-3 died while running it (gone)");
    }

    static NodeSighting seen(String nodeId, Duration ago) {
        return new NodeSighting(nodeId, NOW.minusSeconds(3600), NOW.minus(ago), NOW, null);
    }

    private static ExecutionRecord running(long id, Instant startedAt) {
        return ExecutionRecord.claim("settle", startedAt, "node-1", startedAt).withId(id);
    }
}
