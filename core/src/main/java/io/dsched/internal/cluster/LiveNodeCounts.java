package io.dsched.internal.cluster;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.ToIntFunction;

/**
 * How many live nodes serve each group, read from the node table at most once a period: what the
 * queue divides a sharded fire's shards by. A read that fails keeps the last counts.
 */
public final class LiveNodeCounts implements ToIntFunction<String> {

    private final GroupLiveness liveness;

    private final long periodNanos;

    private final LongSupplier nanoTime;

    private Map<String, Integer> counts = Map.of();

    private long readAt;

    private boolean read;

    /**
     * Creates the counts.
     * @param liveness the groups and their live nodes
     * @param period how long counts read are used before they are read again
     * @param nanoTime the time, in nanoseconds
     */
    public LiveNodeCounts(GroupLiveness liveness, Duration period, LongSupplier nanoTime) {
        this.liveness = liveness;
        this.periodNanos = period.toNanos();
        this.nanoTime = nanoTime;
    }

    /**
     * Returns how many live nodes serve a group.
     * @param group the group
     * @return its live nodes, as last read; 0 if none was seen
     */
    @Override
    public synchronized int applyAsInt(String group) {
        long now = this.nanoTime.getAsLong();
        if (!this.read || now - this.readAt >= this.periodNanos) {
            this.readAt = now;
            this.read = true;
            try {
                Map<String, Integer> counts = new HashMap<>();
                for (GroupLiveness.Group seen : this.liveness.groups()) {
                    counts.put(seen.name(), seen.liveNodes().size());
                }
                this.counts = counts;
            } catch (RuntimeException ex) {
                // the last counts serve until the next read: they decide a share, not a claim
            }
        }
        return this.counts.getOrDefault(group, 0);
    }
}
