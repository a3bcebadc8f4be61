package io.dsched.internal.queue;

import io.dsched.execution.ExecutionRecord;
import io.dsched.internal.execution.ConcurrencyLimits;
import io.dsched.internal.execution.JobTarget;
import io.dsched.internal.store.ExecutionStore;
import io.dsched.internal.store.LimitOutcomes;
import io.dsched.internal.store.TargetLimits;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a {@link QueueLane}'s poll claims: the due attempts of its targets with cluster-wide limits,
 * each under its limits' lock, and those of the others in one batch. Used by the lane's poller
 * alone.
 */
final class LaneClaims {

    private static final Logger logger = LoggerFactory.getLogger(LaneClaims.class);

    private final ExecutionStore store;

    private final String nodeId;

    private final ConcurrencyLimits limits;

    private final LimitOutcomes outcomes;

    private final Clock clock;

    /** The buckets of the targets' node-local rates, by target. */
    private final Map<String, NodeBucket> buckets = new HashMap<>();

    /** Counts the claims, which take turns at what they claim first. */
    private int turns;

    /** The claims of sharded jobs' attempts, each node its share. */
    private final ShardClaims shards;

    LaneClaims(
            ExecutionStore store,
            String nodeId,
            ConcurrencyLimits limits,
            LimitOutcomes outcomes,
            ShardClaims shards,
            Clock clock) {
        this.outcomes = outcomes;
        this.store = store;
        this.nodeId = nodeId;
        this.limits = limits;
        this.shards = shards;
        this.clock = clock;
    }

    /** Tells whether a target is a sharded job. */
    boolean sharded(String name) {
        return this.shards.sharded(name).isPresent();
    }

    /**
     * Lets go the held fires whose turn has come (see {@link ShardClaims}), then claims the due
     * attempts of the targets with a limit, each within it (a sharded job's within this node's share
     * of its shards, a target with cluster-wide limits within those), and those of the others: by
     * turns the limited ones first and the others first, and among the limited each first in turn, so
     * that neither a backlog of unlimited attempts keeps a limited target's free slots unused nor one
     * of limited attempts the others' workers. Each claim is a transaction of its own: one that fails
     * leaves those made before it to run, and is logged.
     */
    List<ExecutionRecord> claim(Set<String> names, Instant now, int free) {
        List<String> limited = new ArrayList<>();
        Set<String> open = new LinkedHashSet<>();
        Map<String, JobTarget> sharded = new HashMap<>();
        for (String name : names) {
            TargetLimits declared = this.limits.limitsOf(name);
            Optional<JobTarget> shards = this.shards.sharded(name);
            shards.ifPresent((job) -> sharded.put(name, job));
            (shards.isPresent() || declared.any() || declared.nodeRate() != null ? limited : open).add(name);
        }
        List<RuntimeException> failures = new ArrayList<>();
        try {
            this.shards.letGoHeld(names, now, !sharded.isEmpty());
        } catch (RuntimeException ex) {
            failures.add(ex);
        }
        int turn = this.turns;
        this.turns = (turn + 1) & Integer.MAX_VALUE;
        if (!limited.isEmpty()) {
            // each takes its turn first on the turns the limited attempts are claimed first
            Collections.rotate(limited, (turn >>> 1) % limited.size());
        }
        List<ExecutionRecord> claimed = new ArrayList<>();
        boolean openFirst = turn % 2 == 1;
        if (openFirst) {
            claimOpen(open, now, free, claimed, failures);
        }
        for (String name : limited) {
            if (claimed.size() < free) {
                try {
                    JobTarget shards = sharded.get(name);
                    claimed.addAll(
                            (shards != null)
                                    ? this.shards.claim(shards, now, free - claimed.size())
                                    : claimLimited(name, free - claimed.size()));
                } catch (RuntimeException ex) {
                    failures.add(ex);
                }
            }
        }
        if (!openFirst) {
            claimOpen(open, now, free, claimed, failures);
        }
        if (!failures.isEmpty()) {
            if (claimed.isEmpty()) {
                throw failures.get(0);
            }
            logger.warn(
                    "Could not look for some due attempts: {}", failures.get(0).getMessage());
        }
        return claimed;
    }

    /**
     * Claims the due attempts of a target with limits: within its node-local rate, if it has one, and
     * under its row's lock, if it has cluster-wide limits.
     */
    private List<ExecutionRecord> claimLimited(String name, int most) {
        TargetLimits declared = this.limits.limitsOf(name);
        NodeBucket bucket = null;
        if (declared.nodeRate() != null) {
            bucket = this.buckets.computeIfAbsent(
                    name, (target) -> new NodeBucket(declared.nodeRate(), System::nanoTime));
            most = Math.min(most, bucket.available());
            if (most <= 0) {
                return List.of();
            }
        }
        List<ExecutionRecord> claimed = declared.any()
                ? this.store.claims().claimDue(this.nodeId, this.clock::instant, most, name, declared, this.outcomes)
                // stamped as of the bucket's count, not of the poll's start
                : this.store.claims().claimDue(this.nodeId, this.clock.instant(), most, List.of(name));
        if (bucket != null) {
            bucket.take(claimed.size());
        }
        return claimed;
    }

    private void claimOpen(
            Set<String> open, Instant now, int free, List<ExecutionRecord> claimed, List<RuntimeException> failures) {
        if (open.isEmpty() || claimed.size() >= free) {
            return;
        }
        try {
            claimed.addAll(this.store.claims().claimDue(this.nodeId, now, free - claimed.size(), open));
        } catch (RuntimeException ex) {
            failures.add(ex);
        }
    }
}
