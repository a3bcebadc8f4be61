package io.dsched.internal.execution;

import io.dsched.execution.ExecutionOrigin;
import io.dsched.execution.ExecutionRecord;
import io.dsched.internal.store.ShardSettings;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * The fire of a sharded job fanned out: one waiting attempt per shard, each under a key of its own,
 * for the queue of any node that runs the job; a broadcast job's, one per live node that runs it,
 * recorded with that node, whose queue alone claims it (its shard's index is the node's place among
 * them, by id). While an attempt of an earlier fire of the job has
 * not ended, the shards are held, with no due time, until the queue lets them go (the overlap guard
 * of a sharded job holds for the whole fire).
 */
public final class ShardFanOut {

    /** Why the shards of a fire wait, while an earlier fire of their job has not ended. */
    static final String HELD = "waiting for every shard of the job's earlier fires to end";

    private ShardFanOut() {}

    /**
     * The first attempts of a fire's shards.
     * @param job the sharded job
     * @param scheduledAt the fire's time
     * @param nodeId the node that fires it
     * @param nodes a broadcast job's live nodes, by id; not read for other jobs
     * @param now the time they are written
     * @param due when they fall due, unless held
     * @param held whether an earlier fire of the job has not ended
     * @return one waiting attempt per shard; none for a broadcast job no live node runs
     */
    static List<ExecutionRecord> attempts(
            JobTarget job,
            Instant scheduledAt,
            String nodeId,
            List<String> nodes,
            Instant now,
            Instant due,
            boolean held) {
        boolean broadcast = job.shards().broadcast();
        int count = broadcast ? nodes.size() : job.shards().count();
        List<ExecutionRecord> shards = new ArrayList<>(count);
        String reason = held
                ? HELD
                : (job.jitter() != null)
                        ? Jitter.reason(
                                scheduledAt, Jitter.startOf(job.name(), scheduledAt, job.jitter()), job.jitter())
                        : null;
        for (int index = 0; index < count; index++) {
            shards.add(ExecutionRecord.waiting(
                    job.name(),
                    scheduledAt,
                    1,
                    ExecutionRecord.idempotencyKey(job.name(), scheduledAt, index, count),
                    ExecutionOrigin.SCHEDULE,
                    broadcast ? nodes.get(index) : nodeId,
                    now,
                    held ? null : due,
                    // the fire keeps its parameters, whatever is set before its shards run
                    Sharding.payloadOf(job.shards().param(index)),
                    reason));
        }
        return shards;
    }

    /**
     * Returns a sharded job as its next fire is split: into the shards and parameters set at run
     * time, if any were, else its declaration's. A broadcast job's shards are its live nodes.
     * @param job the job, as declared
     * @param settings the shards set at run time
     * @return the job, split as its fires are now; as declared should what was set not be readable
     *     for another reason than a passing failure
     */
    public static JobTarget inForce(JobTarget job, ShardSettings settings) {
        if (job.shards() == null || job.shards().broadcast()) {
            return job;
        }
        return settings.find(job.name())
                .map((set) -> job.withShards(new Sharding(
                        set.count(), set.params(), false, job.shards().overlap())))
                .orElse(job);
    }

    /**
     * When a fire's shards fall due: at its time, or at its offset time for a job with a jitter, or
     * at once if that has passed.
     * @param job the sharded job
     * @param scheduledAt the fire's time
     * @param now the time now
     * @return when the shards fall due
     */
    public static Instant due(JobTarget job, Instant scheduledAt, Instant now) {
        Instant start = (job.jitter() != null) ? Jitter.startOf(job.name(), scheduledAt, job.jitter()) : scheduledAt;
        return start.isAfter(now) ? start : now;
    }
}
