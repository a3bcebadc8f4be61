package io.dsched.internal.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class TimeOrderedKeysTests {

    @Test
    void aKeyIsAUuidOfVersion7LedByItsMillisecond() {
        Instant now = Instant.parse("2026-12-06T21:40:12.345678Z");

        UUID key = TimeOrderedKeys.next(now);

        assertThat(key.version()).isEqualTo(7);
        assertThat(key.variant()).isEqualTo(2);
        assertThat(key.getMostSignificantBits() >>> 16).isEqualTo(now.toEpochMilli());
        assertThat(key.toString()).startsWith("01a24d4c-dbb9-7");
    }

    @Test
    void keysOfLaterMillisecondsSortAfterThoseOfEarlierOnesAsText() {
        Instant first = Instant.parse("2026-12-06T21:40:12.345Z");
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            keys.add(TimeOrderedKeys.next(first.plusMillis(i)).toString());
        }

        assertThat(keys).isSorted();
    }

    @Test
    void keysOfTheSameMillisecondDifferInTheir74RandomBits() {
        Instant now = Instant.parse("2026-12-06T21:40:12.345Z");
        Set<UUID> keys = new HashSet<>();
        Set<Long> randomA = new HashSet<>();
        Set<Long> topOfRandomB = new HashSet<>();
        Set<Long> bottomOfRandomB = new HashSet<>();
        for (int i = 0; i < 100_000; i++) {
            UUID key = TimeOrderedKeys.next(now);
            assertThat(key.version()).isEqualTo(7);
            assertThat(key.variant()).isEqualTo(2);
            assertThat(key.getMostSignificantBits() >>> 16).isEqualTo(now.toEpochMilli());
            keys.add(key);
            randomA.add(key.getMostSignificantBits() & 0xFFFL);
            topOfRandomB.add((key.getLeastSignificantBits() >>> 56) & 0x3FL);
            bottomOfRandomB.add(key.getLeastSignificantBits() & 0xFFL);
        }

        assertThat(keys).hasSize(100_000);
        assertThat(randomA).as("the 12 bits after the version").hasSize(4096);
        assertThat(topOfRandomB).as("the 6 bits after the variant").hasSize(64);
        assertThat(bottomOfRandomB).as("the last 8 bits").hasSize(256);
    }
}
