package io.dsched.internal.queue;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dsched.internal.store.ClusterTables;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
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

    @Test
    void aListenerIsOffWhenItDoesNotListenAndOnceStoppedWhateverItHeardLast() {
        NoticeChannel channel = NoticeChannel.of(null, "", ClusterTables.DEFAULT);
        NoticeListener off = new NoticeListener(channel, null, null, false);
        NoticeListener listener = new NoticeListener(channel, null, null, true);
        assertThat(off.hearing()).isEqualTo(NoticeHearing.OFF);
        assertThat(listener.hearing()).isEqualTo(NoticeHearing.NOT_YET);
        assertThat(NoticeHearer.named(() -> List.of(off, listener)).get()).isEqualTo("not_yet");

        // no pool to take a connection from: it cannot listen, and polls
        listener.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> listener.hearing() == NoticeHearing.POLLING);
        assertThat(NoticeHearer.named(() -> List.of(off, listener)).get()).isEqualTo("polling");

        listener.stop();
        assertThat(listener.hearing()).isEqualTo(NoticeHearing.OFF);
        assertThat(NoticeHearer.named(() -> List.of(off, listener)).get()).isEqualTo("off");

        // started again, it has not yet checked, whatever its last run found
        listener.start();
        try {
            assertThat(listener.hearing()).isIn(NoticeHearing.NOT_YET, NoticeHearing.POLLING);
            await().atMost(Duration.ofSeconds(10)).until(() -> listener.hearing() == NoticeHearing.POLLING);
        } finally {
            listener.stop();
        }
        assertThat(listener.hearing()).isEqualTo(NoticeHearing.OFF);
    }
}
