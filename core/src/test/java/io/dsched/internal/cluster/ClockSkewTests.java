package io.dsched.internal.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The node's clock measured against the database's: the offset corrects database time as the node
 * knows it, the time a query takes is not counted as skew, and past the maximum skew the node takes
 * no fires until its clock is back within bounds.
 */
class ClockSkewTests {

    private static final Duration MAX_SKEW = Duration.ofSeconds(2);

    private final SettableClock nodeClock = new SettableClock(Instant.parse("2031-01-01T00:00:00Z"));

    private final DatabaseClock databaseClock = new DatabaseClock(this.nodeClock);

    private final FakeNodeTable nodes = new FakeNodeTable(this.nodeClock);

    private final ClockSkew skew = new ClockSkew(this.databaseClock, MAX_SKEW, "node-1");

    @Test
    void theMeasuredOffsetCorrectsTheNodesClockToDatabaseTimeAndIsRecorded() {
        assertThat(this.skew.isMeasured()).isFalse();
        this.nodes.nodeAhead(Duration.ofMillis(1500));
        assertThat(this.skew.measure(this.nodes)).isEqualTo(Duration.ofMillis(1500));
        assertThat(this.skew.isMeasured()).isTrue();
        assertThat(this.databaseClock.instant()).isEqualTo(this.nodes.databaseNow());
        assertThat(this.nodes.recordedOffsets).containsExactly(Duration.ofMillis(1500));
    }

    @Test
    void theTimeTheQueryTakesIsNotCountedAsSkew() {
        this.nodes.nodeAhead(Duration.ofMillis(-300));
        this.nodes.roundTrips(Duration.ofMillis(800));
        assertThat(this.skew.measure(this.nodes)).isEqualTo(Duration.ofMillis(-300));
        assertThat(this.nodes.reads).as("a quick round trip is measured once").isEqualTo(1);
    }

    @Test
    void aSlowRoundTripIsMeasuredAgainAndTheQuickestOfAtMostThreeKept() {
        this.nodes.nodeAhead(Duration.ofMillis(100));
        // slow reads whose answers waited in a queue after the database took its time: each
        // errs by half its waiting; the quickest errs least
        this.nodes.read(Duration.ZERO, Duration.ofMillis(1800));
        this.nodes.read(Duration.ZERO, Duration.ofMillis(1100));
        this.nodes.read(Duration.ZERO, Duration.ofMillis(1400));
        assertThat(this.skew.measure(this.nodes)).isEqualTo(Duration.ofMillis(100 + 550));
        assertThat(this.nodes.reads).isEqualTo(3);
        this.nodes.reads = 0;
        this.nodes.read(Duration.ZERO, Duration.ofMillis(1800));
        this.nodes.read(Duration.ZERO, Duration.ofMillis(10));
        assertThat(this.skew.measure(this.nodes)).isEqualTo(Duration.ofMillis(100 + 5));
        assertThat(this.nodes.reads).as("stops at the first quick read").isEqualTo(2);
    }

    @Test
    void aNodeBeyondTheMaximumSkewEitherWayTakesNoFiresUntilItsClockIsBackWithinBounds() {
        this.nodes.nodeAhead(MAX_SKEW);
        this.skew.measure(this.nodes);
        assertThat(this.skew.isSkewed()).as("exactly the maximum").isFalse();
        this.nodes.nodeAhead(MAX_SKEW.plusMillis(1));
        this.skew.measure(this.nodes);
        assertThat(this.skew.isSkewed()).isTrue();
        this.nodes.nodeAhead(MAX_SKEW.negated().minusMillis(1));
        this.skew.measure(this.nodes);
        assertThat(this.skew.isSkewed()).as("behind").isTrue();
        this.nodes.nodeAhead(Duration.ofMillis(-20));
        this.skew.measure(this.nodes);
        assertThat(this.skew.isSkewed()).isFalse();
        assertThat(this.skew.isBeyondBounds(MAX_SKEW.negated())).isFalse();
        assertThat(this.skew.isBeyondBounds(MAX_SKEW.negated().minusMillis(1))).isTrue();
    }

    @Test
    void theStandingOfASkewedNodeTakesNoFiresAndNamesNoLiveNodesBeforeItJudgesOthers() {
        ClusterMembership membership = new ClusterMembership(
                this.nodes,
                null,
                null,
                null,
                (handedOverAfter) -> java.util.Set.of(),
                "node-1",
                java.util.Set.of(),
                Duration.ofSeconds(1),
                Duration.ofSeconds(10),
                this.databaseClock,
                this.skew,
                (job) -> java.util.List.of());
        MembershipStanding standing = new MembershipStanding(membership, this.skew, this.nodes);
        assertThat(standing.takesFires()).isTrue();
        assertThat(standing.liveNodes()).as("not yet judging others").isEmpty();
        this.nodes.nodeAhead(Duration.ofSeconds(5));
        this.skew.measure(this.nodes);
        assertThat(standing.takesFires()).isFalse();
    }
}
