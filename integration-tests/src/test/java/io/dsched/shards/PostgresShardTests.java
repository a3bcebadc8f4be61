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
        startSettling("notified-1", "60s");
        startSettling("notified-2", "60s");
        Instant started = Instant.now();

        await().atMost(Duration.ofSeconds(40))
                .until(() -> completeFires("settle", started, 12).size() >= 4);
        // the first fires may come before each node sees the other alive (it then takes them all)
        List<Instant> fires = completeFires("settle", started, 12).subList(1, 4);
        for (Instant fire : fires) {
            assertThat(runsOf("settle", fire))
                    .as("nodes that ran the shards of the fire at %s", fire)
                    .extracting(ShardJobs.Run::node)
                    .containsOnly("notified-1", "notified-2")
                    .contains("notified-1", "notified-2");
        }
    }
}
