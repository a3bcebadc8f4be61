package io.dsched.internal.execution;

import io.dsched.execution.ExecutionOrigin;
import io.dsched.execution.ExecutionRecord;
import io.dsched.internal.store.ExecutionStore;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.stream.Collectors;
import net.javacrumbs.shedlock.core.SimpleLock;

/**
 * The claims of fires written in the transaction that fires them (see
 * {@link FireExecutor#claimAhead}): each fire's first attempt, running, and for a guarded job the
 * job's lock, if the fire is due or no other attempt of the job waits (else its worker takes the
 * lock as it starts); a fire of a job this node does not declare, or of a group it does not serve,
 * waits for a node that runs it; a sharded job's fire is written as its shards, waiting for any
 * node (see {@link ShardFanOut}).
 * A lock taken with a claim ahead of its time is held from the claim: up to the idle wait plus
 * twice the lead longer than the run, which a job's lockAtLeastFor and lockAtMostFor count in.
 */
final class ClaimsInTransaction {

    /**
     * How far ahead of its time a fire is claimed with its job's guard whatever else waits for the
     * job. A fire claimed further ahead takes the guard with its claim only while no other attempt
     * of the job waits (a retry, a manual run, a fire left by a stopping node), and otherwise as its
     * worker starts it: held from the claim, the guard would keep those out for the whole lead, and
     * for good for a job that fires more often than that.
     */
    private static final Duration GUARD_AHEAD = Duration.ofMillis(100);

    private final ExecutionStore store;

    private final JobGuard guard;

    private final JobTargets targets;

    private final NodeGroups groups;

    private final JobTargets served;

    private final String nodeId;

    private final Function<JobTarget, List<String>> broadcastNodes;

    ClaimsInTransaction(
            ExecutionStore store,
            JobGuard guard,
            JobTargets targets,
            NodeGroups groups,
            String nodeId,
            Function<JobTarget, List<String>> broadcastNodes) {
        this.broadcastNodes = broadcastNodes;
        this.store = store;
        this.guard = guard;
        this.targets = targets;
        this.groups = groups;
        this.served = groups.served(targets);
        this.nodeId = nodeId;
    }

    /** Claims the fires on the transaction's connection; see {@link FireExecutor#claimAhead}. */
    Map<Fire, Attempt> claim(Connection connection, List<Fire> fires, Instant now) throws SQLException {
        List<ExecutionRecord> claims = new ArrayList<>(fires.size());
        Map<String, JobTarget> jobs = new HashMap<>();
        List<ExecutionRecord> undeclared = new ArrayList<>();
        Map<Fire, JobTarget> sharded = new HashMap<>();
        for (Fire fire : fires) {
            Optional<JobTarget> job = this.served.find(fire.jobName());
            // a fire claimed ahead of its time is to start at its time, and waits for it
            Instant start = fire.scheduledAt().isAfter(now) ? fire.scheduledAt() : now;
            Optional<JobTarget> declared = job.isPresent() ? job : this.targets.find(fire.jobName());
            // a job this node does not know may be a runtime job of a handler it does not declare
            Optional<JobTarget> shards = declared.isPresent()
                    ? declared.filter((target) -> target.shards() != null)
                    : this.targets.sharded(fire.jobName());
            if (shards.isPresent()) {
                // sharded: each shard waits in the queue, for any node of its group, whichever node
                // took the fire
                sharded.put(fire, shards.get());
            } else if (job.isEmpty()) {
                String reason = this.groups.whyNotHere(declared, this.nodeId);
                // a staggered job of another group is due at its offset time there too
                Instant due = Jitter.dueAt(fire.jobName(), fire.scheduledAt(), declared, start);
                undeclared.add(waiting(fire.jobName(), fire.scheduledAt(), this.nodeId, now, due, reason));
            } else if (job.get().jitter() != null) {
                // staggered: it waits for its offset time in the queue, for any node of its group
                Instant offset = Jitter.startOf(
                        fire.jobName(), fire.scheduledAt(), job.get().jitter());
                undeclared.add(waiting(
                        fire.jobName(),
                        fire.scheduledAt(),
                        this.nodeId,
                        now,
                        offset.isAfter(now) ? offset : now,
                        Jitter.reason(fire.scheduledAt(), offset, job.get().jitter())));
            } else if (!job.get().guarded() || this.guard.locksInTransactions()) {
                ExecutionRecord claim = ExecutionRecord.claim(fire.jobName(), fire.scheduledAt(), this.nodeId, start);
                claims.add(claim);
                jobs.put(claim.idempotencyKey(), job.get());
            }
        }
        undeclared.addAll(fanOut(connection, sharded, now));
        // queued with the fire, so that the removal of a job no node declares any more cancels it
        this.store.inserts().insertOn(connection, undeclared);
        if (claims.isEmpty()) {
            return Map.of();
        }
        Set<String> waitedFor =
                this.store.inserts().withWaitingAttemptsOn(connection, aheadAndGuarded(claims, jobs, now));
        Map<String, Attempt> claimed = new HashMap<>();
        // guards in name order, as the outcomes' writes release them: no two transactions wait in a circle
        List<ExecutionRecord> inserted =
                new ArrayList<>(this.store.inserts().claimOn(connection, claims).values());
        inserted.sort(Comparator.comparing(ExecutionRecord::jobName));
        for (ExecutionRecord claim : inserted) {
            JobTarget job = jobs.get(claim.idempotencyKey());
            SimpleLock lock = null;
            if (job.guarded() && (!ahead(claim, now) || !waitedFor.contains(job.name()))) {
                Optional<SimpleLock> taken = this.guard.tryLockOn(connection, job);
                if (taken.isEmpty() && !ahead(claim, now)) {
                    // another run holds the guard: the worker claims the fire and waits for it
                    this.store.inserts().unclaimOn(connection, claim);
                    continue;
                }
                // held by another run, a fire claimed ahead stays claimed: its worker takes the guard
                lock = taken.orElse(null);
            }
            claimed.put(claim.idempotencyKey(), new Attempt(claim, job, lock));
        }
        Map<Fire, Attempt> byFire = new HashMap<>();
        for (Fire fire : fires) {
            Attempt attempt = claimed.get(ExecutionRecord.idempotencyKey(fire.jobName(), fire.scheduledAt()));
            if (attempt != null) {
                byFire.put(fire, attempt);
            }
        }
        return byFire;
    }

    /**
     * The shards of sharded jobs' fires, each fire's held while an earlier fire of its job has an
     * attempt not ended, or is among these fires.
     */
    private List<ExecutionRecord> fanOut(Connection connection, Map<Fire, JobTarget> fires, Instant now)
            throws SQLException {
        if (fires.isEmpty()) {
            return List.of();
        }
        List<Fire> inOrder = new ArrayList<>(fires.keySet());
        inOrder.sort(Comparator.comparing(Fire::scheduledAt));
        Set<String> behind = new HashSet<>(this.store
                .inserts()
                .withUnfinishedAttemptsOn(
                        connection, inOrder.stream().map(Fire::jobName).collect(Collectors.toSet())));
        Set<String> held = new HashSet<>(this.store.inserts().withHeldFireOn(connection, behind));
        List<ExecutionRecord> shards = new ArrayList<>();
        Map<String, JobTarget> inForce = new HashMap<>();
        for (Fire fire : inOrder) {
            // split as set at run time, if it was: read as the fire is written
            JobTarget job = inForce.computeIfAbsent(
                    fire.jobName(), (name) -> ShardFanOut.inForce(fires.get(fire), this.store.shardSettings()));
            // a job whose fires may overlap holds none
            boolean behindAnother = !behind.add(job.name()) && !job.shards().overlap();
            if (behindAnother && !held.add(job.name())) {
                // a job keeps at most one fire held: this one is skipped (its worker, finding no row
                // of it, records the skip)
                continue;
            }
            shards.addAll(ShardFanOut.attempts(
                    job,
                    fire.scheduledAt(),
                    this.nodeId,
                    job.shards().broadcast() ? this.broadcastNodes.apply(job) : List.of(),
                    now,
                    ShardFanOut.due(job, fire.scheduledAt(), now),
                    behindAnother));
        }
        return shards;
    }

    private static boolean ahead(ExecutionRecord claim, Instant now) {
        return claim.scheduledAt().isAfter(now.plus(GUARD_AHEAD));
    }

    /** The guarded jobs of the claims ahead of their time. */
    private static Set<String> aheadAndGuarded(List<ExecutionRecord> claims, Map<String, JobTarget> jobs, Instant now) {
        Set<String> names = new HashSet<>();
        for (ExecutionRecord claim : claims) {
            JobTarget job = jobs.get(claim.idempotencyKey());
            if (job.guarded() && ahead(claim, now)) {
                names.add(job.name());
            }
        }
        return names;
    }

    /** A fire's first attempt, waiting for any node. */
    static ExecutionRecord waiting(
            String jobName, Instant scheduledAt, String nodeId, Instant now, Instant dueAt, String reason) {
        return ExecutionRecord.waiting(
                jobName,
                scheduledAt,
                1,
                ExecutionRecord.idempotencyKey(jobName, scheduledAt),
                ExecutionOrigin.SCHEDULE,
                nodeId,
                now,
                dueAt,
                null,
                reason);
    }

    /** Why a fire waits for a node that declares its job. */
    static String notDeclared(String nodeId) {
        return "job is not declared on node " + nodeId;
    }
}
