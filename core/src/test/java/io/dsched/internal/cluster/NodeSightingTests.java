package io.dsched.internal.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * Whether a node counts as alive, read on the database's clock: silent for the node timeout it
 * still is, a millisecond longer it is not, whatever the interval of its heartbeats was. The
 * cluster suites prove the whole on real databases with margins a loaded machine keeps; this
 * proves the boundary exactly.
 */
class NodeSightingTests {

    private static final Duration NODE_TIMEOUT = Duration.ofSeconds(2);

    private static final Instant LAST_SEEN = Instant.parse("2031-01-01T00:00:00Z");

    @Test
    void aNodeSilentForExactlyTheNodeTimeoutIsAliveAndAMillisecondLongerIsDead() {
        assertThat(seenAgo(Duration.ZERO).isAlive(NODE_TIMEOUT)).isTrue();
        assertThat(seenAgo(Duration.ofMillis(200)).isAlive(NODE_TIMEOUT)).isTrue();
        assertThat(seenAgo(NODE_TIMEOUT).isAlive(NODE_TIMEOUT)).isTrue();
        assertThat(seenAgo(NODE_TIMEOUT.plusMillis(1)).isAlive(NODE_TIMEOUT)).isFalse();
        assertThat(seenAgo(NODE_TIMEOUT.plusMillis(1)).silence()).isEqualTo(Duration.ofMillis(2001));
    }

    @Test
    void aNodeSeenAfterTheDatabaseReadTheTimeIsAlive() {
        // its heartbeat committed between the read of the time and the read of its row
        assertThat(seenAgo(Duration.ofMillis(-5)).isAlive(NODE_TIMEOUT)).isTrue();
    }

    private static NodeSighting seenAgo(Duration silence) {
        return new NodeSighting("node-2", LAST_SEEN.minusSeconds(60), LAST_SEEN, LAST_SEEN.plus(silence), null);
    }
}
