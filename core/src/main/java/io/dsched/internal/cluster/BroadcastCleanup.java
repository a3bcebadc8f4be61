package io.dsched.internal.cluster;

import io.dsched.execution.ExecutionRecord;
import io.dsched.internal.execution.JobTarget;
import io.dsched.internal.execution.JobTargets;
import io.dsched.internal.execution.Sharding;
import io.dsched.internal.store.ExecutionStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Ends the attempts of broadcast jobs that no node will run: each is for its node alone, so one
 * whose node died, left, or does not run the job is cancelled, not run elsewhere; left waiting, it
 * would hold the job's next fires for good. Used by the node's membership.
 */
final class BroadcastCleanup {

    private static final Logger logger = LoggerFactory.getLogger(BroadcastCleanup.class);

    /**
     * How long a broadcast job's waiting attempt is left to a node not seen to run the job before it
     * is cancelled: a node that joined after the nodes were read here may have been given one.
     */
    static final Duration GRACE = Duration.ofSeconds(10);

    /** Why a broadcast job's attempt is cancelled. */
    static final String NODE_GONE = "cancelled: its node is gone or does not run the job, and a broadcast job's"
            + " attempt runs on its own node alone";

    private final ExecutionStore store;

    private final JobTargets targets;

    private final Function<JobTarget, List<String>> nodes;

    private final String nodeId;

    private final Clock clock;

    BroadcastCleanup(
            ExecutionStore store,
            JobTargets targets,
            Function<JobTarget, List<String>> nodes,
            String nodeId,
            Clock clock) {
        this.store = store;
        this.targets = targets;
        this.nodes = nodes;
        this.nodeId = nodeId;
        this.clock = clock;
    }

    /** Tells whether a job this node declares is a broadcast job. */
    boolean broadcast(String jobName) {
        return job(jobName).isPresent();
    }

    /**
     * Tells whether an attempt is a broadcast fire's shard, which runs on its node alone (a run by
     * hand of a broadcast job runs on any node, and is taken over as any other).
     */
    boolean forItsNodeAlone(ExecutionRecord attempt) {
        return broadcast(attempt.jobName()) && Sharding.shardOf(attempt.idempotencyKey()) != null;
    }

    private Optional<JobTarget> job(String jobName) {
        return this.targets
                .find(jobName)
                .filter((job) -> job.shards() != null && job.shards().broadcast());
    }

    /** Ends a dead node's running attempt of a broadcast job, which no other node runs for it. */
    void cancelOrphan(ExecutionRecord orphan, String reason) {
        if (this.store.rescues().cancel(orphan, this.clock.instant(), reason + "; " + NODE_GONE)) {
            logger.warn(
                    "Cancelled attempt {} of broadcast job '{}' scheduled at {}: {}",
                    orphan.attempt(),
                    orphan.jobName(),
                    orphan.scheduledAt(),
                    reason);
        }
    }

    /**
     * Cancels the waiting attempts of each broadcast job written, more than {@link #GRACE} ago, for a
     * node that does not run it now: one that left or died, or that does not declare the job or
     * serve its group (a rescue or a replay by a node of another release writes for itself).
     */
    void cancelStranded() {
        try {
            cancelStrandedOf(this.targets.names());
        } catch (RuntimeException ex) {
            // on its own: the rest of the look at the dead nodes' work goes on
            logger.warn("Could not look for stranded attempts of broadcast jobs: {}", ex.getMessage());
        }
    }

    private void cancelStrandedOf(Iterable<String> names) {
        for (String name : names) {
            Optional<JobTarget> job = job(name);
            if (job.isEmpty()) {
                continue;
            }
            Instant now = this.clock.instant();
            List<String> running = this.nodes.apply(job.get());
            int cancelled =
                    this.store.shardedFires().cancelWaitingNotOn(name, running, now.minus(GRACE), now, NODE_GONE);
            if (cancelled > 0) {
                logger.warn(
                        "Cancelled {} waiting attempt(s) of broadcast job '{}' for nodes that do not run it",
                        cancelled,
                        name);
            }
        }
    }

    /**
     * Cancels, as the node leaves, the waiting attempts of broadcast jobs written for it, which no
     * other node runs: the next fires need not wait for a node to judge it gone. Called after its
     * row is removed, so that no fire written since is for it; one written meanwhile, from an older
     * read of the live nodes, is cancelled as a dead node's.
     */
    void cancelOwn() {
        List<String> broadcast =
                this.targets.names().stream().filter(this::broadcast).toList();
        try {
            this.store.shardedFires().cancelWaitingOn(broadcast, this.nodeId, this.clock.instant(), NODE_GONE);
        } catch (RuntimeException ex) {
            logger.warn("Could not cancel the waiting broadcast attempts of node {}: {}", this.nodeId, ex.getMessage());
        }
    }
}
