package io.dsched.internal.queue;

import io.dsched.execution.ExecutionRecord;
import io.dsched.internal.execution.JobTarget;
import io.dsched.internal.execution.JobTargets;
import io.dsched.internal.execution.ShardFanOut;
import io.dsched.internal.execution.Sharding;
import io.dsched.internal.store.ExecutionStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.ToIntFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's claims of a sharded job's attempts. Held fires are let go, the earliest of a job once no
 * other attempt of it is waiting or running; the node claims no more of the job's due
 * attempts than its share (a fire's shards divided among the live nodes of the job's group) less
 * those it runs already: a fire's shards spread over the nodes while others are free, and a node
 * that joins mid-fire takes shards still waiting. A broadcast job's node claims the attempts
 * recorded for it, and no other's. Used by a lane's poller alone.
 */
final class ShardClaims {

    private static final Logger logger = LoggerFactory.getLogger(ShardClaims.class);

    private final ExecutionStore store;

    private final JobTargets targets;

    private final String nodeId;

    private final ToIntFunction<String> liveNodes;

    private final Consumer<String> shardsLetGo;

    /** Why the held fires of a job that no longer declares shards are cancelled. */
    static final String NO_LONGER_SHARDED =
            "cancelled: the job no longer declares shards, and its fires are guarded by its lock";

    /** How often a lane that runs no sharded job looks for held fires. */
    static final Duration STRANDED_EVERY = Duration.ofSeconds(30);

    /** When held fires were last looked for, by {@link System#nanoTime()}. */
    private long lookedForHeldAt = System.nanoTime() - STRANDED_EVERY.toNanos();

    /**
     * Creates the claims of a lane.
     * @param store the execution history
     * @param targets the jobs and handlers the lane runs
     * @param nodeId this node
     * @param liveNodes how many live nodes serve a group
     * @param shardsLetGo announces that a held fire of a job was let go, for the other nodes' queues
     */
    ShardClaims(
            ExecutionStore store,
            JobTargets targets,
            String nodeId,
            ToIntFunction<String> liveNodes,
            Consumer<String> shardsLetGo) {
        this.store = store;
        this.targets = targets;
        this.nodeId = nodeId;
        this.liveNodes = liveNodes;
        this.shardsLetGo = shardsLetGo;
    }

    /**
     * The target of a name, if it is a sharded job of the lane: looked up each time, as a runtime
     * job may be created, deleted and created again with other shards while the node runs.
     */
    Optional<JobTarget> sharded(String name) {
        return this.targets.find(name).filter((found) -> found.shards() != null);
    }

    /**
     * Lets go the earliest held fire of each job of the lane that has one, once no other attempt of
     * the job waits or runs: due at its time (at its offset, for a job with a jitter), or at once if
     * that has passed. Looked for at each claim of a lane that runs sharded jobs, and every
     * {@link #STRANDED_EVERY} by the others: the held fires of a job that no longer declares shards
     * are cancelled, at worst that much later (its new fires take its lock, which shards do not).
     */
    void letGoHeld(Set<String> names, Instant now, boolean runsShards) {
        long at = System.nanoTime();
        if (!runsShards && at - this.lookedForHeldAt < STRANDED_EVERY.toNanos()) {
            return;
        }
        this.lookedForHeldAt = at;
        for (String name : this.store.shardedFires().held()) {
            if (names.contains(name)) {
                Optional<JobTarget> job = this.targets.find(name);
                if (job.isPresent() && job.get().shards() == null) {
                    this.store.shardedFires().cancelHeld(name, now, NO_LONGER_SHARDED);
                    continue;
                }
                // a job whose fires may overlap holds none: those held before it did are let go at once
                boolean overlap = job.map((target) -> target.shards().overlap()).orElse(false);
                int letGo = this.store.shardedFires().letGo(name, overlap, (fire) -> job.map(
                                (target) -> ShardFanOut.due(target, fire, now))
                        .orElse(fire.isAfter(now) ? fire : now));
                if (letGo > 0) {
                    announceLetGo(name);
                }
            }
        }
    }

    /**
     * Announces a held fire let go, committed: the other nodes of the group claim their share now,
     * not at their next poll, which finds it should the notice fail.
     */
    private void announceLetGo(String name) {
        try {
            this.shardsLetGo.accept(name);
        } catch (RuntimeException ex) {
            logger.debug("Could not announce the held fire of '{}' let go: {}", name, ex.getMessage());
        }
    }

    /**
     * Claims due attempts of a sharded job, at most {@code most} and no more than this node's share;
     * of a broadcast job, those recorded for this node.
     */
    List<ExecutionRecord> claim(JobTarget job, Instant now, int most) {
        if (job.shards().broadcast()) {
            return this.store.claims().claimDueOn(this.nodeId, now, most, job.name());
        }
        int nodes = this.liveNodes.applyAsInt(job.group());
        // fires that overlap: an equal part of the shards due or running, of whichever fires
        int share = job.shards().overlap()
                ? share(this.store.shardedFires().activeShards(job.name(), now), nodes)
                : share(dueFireCount(job, now), nodes);
        int room = Math.min(most, share - this.store.shardedFires().runningOn(job.name(), this.nodeId));
        if (room <= 0) {
            return List.of();
        }
        return this.store.claims().claimDue(this.nodeId, now, room, List.of(job.name()));
    }

    /** The shards a job's fires are split into now, as last read, with when, by {@link System#nanoTime()}. */
    private final Map<String, Map.Entry<Integer, Long>> counts = new ConcurrentHashMap<>();

    /**
     * The shards of the fire a job's claim takes shards of: the count in the key of its earliest due
     * shard, the count the fire was written with whatever is set since; read at each claim. If none
     * is due, the count its fires are split into now (set at run time, or declared), read at most
     * once a second; a read that fails keeps the last count.
     */
    private int dueFireCount(JobTarget job, Instant now) {
        Optional<Integer> due = this.store
                .shardedFires()
                .dueShardKey(job.name(), now)
                .map(Sharding::shardOf)
                .map(Sharding.Shard::count);
        if (due.isPresent()) {
            return due.get();
        }
        long at = System.nanoTime();
        Map.Entry<Integer, Long> last = this.counts.get(job.name());
        if (last != null && at - last.getValue() < COUNT_READ_EVERY.toNanos()) {
            return last.getKey();
        }
        int count;
        try {
            count = ShardFanOut.inForce(job, this.store.shardSettings())
                    .shards()
                    .count();
        } catch (RuntimeException ex) {
            count = (last != null) ? last.getKey() : job.shards().count();
        }
        this.counts.put(job.name(), Map.entry(count, at));
        return count;
    }

    /** How long a job's shard count read is used before it is read again. */
    private static final Duration COUNT_READ_EVERY = Duration.ofSeconds(1);

    /**
     * A node's share of a fire's shards: an equal part of them, rounded up.
     * @param shards the fire's shards
     * @param liveNodes the live nodes that run them; this node counts as one if none is seen
     * @return the most this node runs at once
     */
    static int share(int shards, int liveNodes) {
        int nodes = Math.max(1, liveNodes);
        return (shards + nodes - 1) / nodes;
    }
}
