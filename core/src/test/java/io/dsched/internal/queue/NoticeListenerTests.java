package io.dsched.internal.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.dsched.internal.store.ClusterTables;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class NoticeListenerTests {

    /** PostgreSQL refuses a NOTIFY on a channel of 64 bytes or more, and truncates such a LISTEN. */
    @Test
    void theProbeChannelOfTheLongestClusterNameIsAChannelNamePostgresqlTakes() {
        ClusterTables longest = ClusterTables.of("c" + "1".repeat(19));
        NoticeChannel channel = NoticeChannel.of(null, "", longest);
        NoticeListener one = new NoticeListener(channel, null, null, false);
        NoticeListener another = new NoticeListener(channel, null, null, false);

        assertThat(one.probeChannel().getBytes(StandardCharsets.UTF_8)).hasSizeLessThan(64);
        assertThat(one.probeChannel()).matches("[a-z][a-z0-9_]*").startsWith(channel.name());
        assertThat(one.probeChannel()).isNotEqualTo(another.probeChannel());
    }

    @Test
    void aNoticeSaysWhichJobAndWhenToTheMicrosecondWhateverTheJobsNameHolds() {
        Instant sentAt = Instant.parse("2026-12-06T01:02:03.456789Z");

        assertThat(NoticePayload.heard(NoticePayload.payload(sentAt, "reports:daily")))
                .isEqualTo(new NoticePayload.Heard("reports:daily", Optional.of(sentAt)));
        // a node of an earlier version names the job alone
        assertThat(NoticePayload.heard("reports")).isEqualTo(new NoticePayload.Heard("reports", Optional.empty()));
        assertThat(NoticePayload.heard("soon:reports"))
                .isEqualTo(new NoticePayload.Heard("soon:reports", Optional.empty()));
    }
}
