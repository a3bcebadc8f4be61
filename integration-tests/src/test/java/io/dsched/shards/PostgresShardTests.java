package io.dsched.shards;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dsched.test.TestDatabases;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class PostgresShardTests extends AbstractShardTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.POSTGRESQL;
    }

    /**
     * The node that takes a fire announces its shards (PostgreSQL's NOTIFY): the other node, which
     * polls once a minute, claims its share at once. Without the notice each fire's shards would all
     * run on the node that took it, the other finding them at its next poll, after they ended.
     */
    @Test
    void theShardsOfAFireAreAnnouncedSoThatANodeThatPollsRarelyTakesItsShare() {
        startPolling("notified-1", "test.settle.cron", "*/2 * * * * *", "60s");
        startPolling("notified-2", "test.settle.cron", "*/2 * * * * *", "60s");
        Instant started = Instant.now();

        await().atMost(Duration.ofSeconds(40))
                .until(() -> completeFires("settle", started, 12).size() >= 4);
        // the first fires may come before each node sees the other alive (it then takes them all)
        List<Instant> fires = completeFires("settle", started, 12).subList(1, 4);
        // the other node claims its share within the 800 ms the first node's shards run; on a
        // machine so loaded that it misses that once, the first node takes the rest: most fires
        assertMostRanOnBoth("settle", fires, "notified-1", "notified-2");
    }

    /**
     * A held fire let go as the fire before it ends is announced too: the node that lets it go
     * claims its share (two of the three shards), the other node, which polls once a minute, the
     * third at once. Without the notice the first node would run all three, the third once one of
     * its own two had ended: a fire written held is not announced as it is written (before it was,
     * which woke the other node by chance, half a second later).
     */
    @Test
    void aHeldFireLetGoIsAnnouncedSoThatANodeThatPollsRarelyTakesItsShare() {
        startPolling("letgo-1", "test.slow.cron", "* * * * * *", "60s");
        startPolling("letgo-2", "test.slow.cron", "* * * * * *", "60s");
        Instant started = Instant.now();

        // fires every second, each of three shards of 1.5 s: each fire after the first is held
        // behind the one before, and let go as its last shard ends
        await().atMost(Duration.ofSeconds(40))
                .until(() -> completeFires("slow", started, 3).size() >= 4);
        // the other node takes the third shard within the 1.5 s the first node's two run; on a machine
        // so loaded that it misses that once, the first node takes it: most fires, not every one
        List<Instant> fires = completeFires("slow", started, 3).subList(1, 4);
        assertMostRanOnBoth("slow", fires, "letgo-1", "letgo-2");
    }

    /** Each of the fires ran on the two nodes alone, and at least two of them on both. */
    private static void assertMostRanOnBoth(String job, List<Instant> fires, String first, String second) {
        for (Instant fire : fires) {
            assertThat(runsOf(job, fire))
                    .as("nodes that ran the shards of the fire at %s", fire)
                    .extracting(ShardJobs.Run::node)
                    .isSubsetOf(first, second);
        }
        assertThat(fires.stream()
                        .filter((fire) -> runsOf(job, fire).stream()
                                        .map(ShardJobs.Run::node)
                                        .distinct()
                                        .count()
                                == 2))
                .as("fires both nodes ran shards of")
                .hasSizeGreaterThanOrEqualTo(2);
    }
}
