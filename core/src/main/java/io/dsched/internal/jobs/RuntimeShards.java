package io.dsched.internal.jobs;

import io.dsched.internal.execution.JobTarget;
import io.dsched.internal.execution.NodeGroups;
import io.dsched.internal.execution.Sharding;
import io.dsched.internal.retry.RetryPolicy;
import io.dsched.internal.store.ShardSettings;
import io.dsched.jobs.RuntimeJobRecord;
import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shards of the runtime jobs created with shards, as last read: worked out once for each read
 * of the jobs, which the queue looks at on every poll.
 */
final class RuntimeShards {

    private static final Logger logger = LoggerFactory.getLogger(RuntimeJobs.class);

    /** The retries of a fire split by a node that does not run the job: none, as it never runs here. */
    private static final RetryPolicy NONE =
            new RetryPolicy(1, Duration.ZERO, 1, Duration.ZERO, Duration.ZERO, List.of(), List.of());

    private final RuntimeJobCache cache;

    private volatile Read read = new Read(null, Map.of());

    RuntimeShards(RuntimeJobCache cache) {
        this.cache = cache;
    }

    /**
     * Returns a job's shards.
     * @param name the job
     * @return its shards, or empty if there is no such job or it runs whole
     */
    Optional<Sharding> of(String name) {
        RuntimeJobRecord job = this.cache.find(name);
        return (job != null) ? Optional.ofNullable(all().get(name)) : Optional.empty();
    }

    /**
     * Returns the sharded jobs, each with its shards.
     * @return the shards by job
     */
    Map<String, Sharding> all() {
        Map<String, RuntimeJobRecord> jobs = this.cache.jobs();
        Read known = this.read;
        if (known.of() != jobs) {
            Map<String, Sharding> sharded = new TreeMap<>();
            jobs.values().forEach((job) -> {
                Sharding shards = sharding(job);
                if (shards != null) {
                    sharded.put(job.name(), shards);
                }
            });
            known = new Read(jobs, Collections.unmodifiableMap(sharded));
            this.read = known;
        }
        return known.shards();
    }

    /**
     * Returns a sharded job as a node that does not run it splits its fires: its shards, and no way
     * to run it here (this node does not claim its attempts).
     * @param name the job
     * @return the job, or empty if there is no such job or it runs whole
     */
    Optional<JobTarget> splitElsewhere(String name) {
        return of(name).map((shards) -> new JobTarget(
                name, NodeGroups.DEFAULT, NONE, null, true, null, null, null, shards, (context, payload) -> {
                    throw new IllegalStateException("'" + name + "' is run by the nodes that declare its handler");
                }));
    }

    /**
     * The shards of a stored job, or {@code null} if it runs whole: its shards alone should its
     * parameters not be readable, and none should its count be out of range (written by hand, or
     * by a later release), each told once.
     */
    static Sharding sharding(RuntimeJobRecord job) {
        if (job.shards() == null) {
            return null;
        }
        try {
            return new Sharding(job.shards(), ShardSettings.params(job.shardParams()));
        } catch (RuntimeException ex) {
            boolean counted = job.shards() >= 1 && job.shards() <= Sharding.MAX;
            if (UNREADABLE.add(job.name() + "#" + job.shards() + "#" + job.shardParams())) {
                logger.warn(
                        "Could not read the shards of runtime job '{}'; its fires run {}: {}",
                        job.name(),
                        counted ? "as its shards without their parameters" : "whole",
                        ex.getMessage());
            }
            return counted ? new Sharding(job.shards(), Map.of()) : null;
        }
    }

    /** The stored shards told unreadable already. */
    private static final Set<String> UNREADABLE = ConcurrentHashMap.newKeySet();

    /** The shards of one read of the jobs. */
    private record Read(Map<String, RuntimeJobRecord> of, Map<String, Sharding> shards) {}
}
