package io.dsched.internal.jobs;

import java.security.SecureRandom;
import java.time.Instant;
import java.util.UUID;

/**
 * The keys of one-off jobs submitted without one: UUIDs of version 7 (RFC 9562), whose first 48
 * bits are the submission's millisecond and the other 74 random. Keys made one after another sort
 * near one another, so that the unique index on keys takes each new one at its right-hand edge,
 * where a random key would land on any page of an index that grows with the history, and read it
 * from disk at scale. The random bits come from a {@link SecureRandom}, as {@link
 * UUID#randomUUID()}'s do: two nodes that submit in the same millisecond do not collide.
 */
final class TimeOrderedKeys {

    private static final SecureRandom random = new SecureRandom();

    private TimeOrderedKeys() {}

    /**
     * Returns a new key.
     * @param now the submission's time
     * @return a UUID of version 7 and the variant of RFC 9562
     */
    static UUID next(Instant now) {
        byte[] bits = new byte[10];
        random.nextBytes(bits);
        long millis = now.toEpochMilli() & 0xFFFF_FFFF_FFFFL;
        long randomA = ((bits[0] & 0x0FL) << 8) | (bits[1] & 0xFFL);
        long high = (millis << 16) | 0x7000L | randomA;
        long low = 0x8000_0000_0000_0000L;
        for (int i = 2; i < 10; i++) {
            low |= (bits[i] & 0xFFL) << (8 * (9 - i));
        }
        low &= 0xBFFF_FFFF_FFFF_FFFFL;
        return new UUID(high, low);
    }
}
