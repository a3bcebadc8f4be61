package io.dsched.quartz;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A node's share of a burst of fires due soon, as the nodes look ahead one after the other. */
class FireSharesTests {

    @Test
    void theFirstNodeToLookTakesItsShareAndTheLastTakesWhatIsLeft() {
        // 500 fires due, 2 nodes: the first to look takes half
        assertThat(FireShares.share(500, 0, 0, 0, 2, 1000)).isEqualTo(250);
        // it looks again at once: it has its share
        assertThat(FireShares.share(250, 0, 250, 250, 2, 1000)).isZero();
        // the other takes the rest
        assertThat(FireShares.share(250, 0, 250, 0, 2, 1000)).isEqualTo(250);
        // three nodes, an uneven burst: rounded up, so that nothing is left for the due instant
        assertThat(FireShares.share(10, 0, 0, 0, 3, 1000)).isEqualTo(4);
        assertThat(FireShares.share(6, 0, 4, 0, 3, 1000)).isEqualTo(4);
        assertThat(FireShares.share(2, 0, 8, 0, 3, 1000)).isEqualTo(2);
    }

    @Test
    void firesDueWithinTheLeadThatNoNodeTookAreTakenWholeTheRestByShare() {
        // the other node never looked (it stops, or its clock is off): what is urgent is taken
        assertThat(FireShares.share(250, 250, 250, 250, 2, 1000)).isEqualTo(250);
        // one urgent trigger does not make a burst due later urgent
        assertThat(FireShares.share(201, 1, 0, 0, 2, 1000)).isEqualTo(101);
        assertThat(FireShares.share(100, 1, 100, 100, 2, 1000)).isEqualTo(1);
    }

    @Test
    void aNodeTakesNoMoreThanItsPoolHasRoomForNorMoreThanIsWaiting() {
        assertThat(FireShares.share(500, 0, 0, 0, 1, 40)).isEqualTo(40);
        assertThat(FireShares.share(3, 0, 0, 0, 1, 40)).isEqualTo(3);
        assertThat(FireShares.share(0, 0, 10, 0, 2, 40)).isZero();
        // before its first check-in a node counts as one of none
        assertThat(FireShares.share(7, 0, 0, 0, 0, 40)).isEqualTo(7);
    }
}
