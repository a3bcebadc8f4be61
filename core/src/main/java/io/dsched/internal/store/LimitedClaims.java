package io.dsched.internal.store;

import io.dsched.execution.ExecutionRecord;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Claims the due attempts of a target with cluster-wide limits: under the lock of the target's row
 * in {@code dsched_limit}, which every node that claims the target's attempts takes first, it
 * claims no more than the limits leave room for.
 *
 * <ul>
 *   <li>A concurrency limit counts the target's attempts running in the database, read after the
 *       lock in read-committed isolation, so that it sees every claim committed before: as claims
 *       of the target are made under the lock alone, two nodes never fill the same slot. A slot
 *       comes back when its attempt stops running: its outcome, a takeover of its dead node, or
 *       its return to wait.
 *   <li>A rate limit is a token bucket kept in the row: refilled by the time since it was last
 *       refilled, up to its permits, as the claiming node's estimate of the database's clock tells
 *       it once the lock is granted, and a token taken by each attempt claimed.
 *   <li>A quota counts the attempts claimed in the current window of its period, numbered from the
 *       epoch by the time the lock was granted; a window this node's clock has not reached yet
 *       counts as the current one.
 *   <li>An adaptive concurrency limit is moved on by each claim ({@link AdaptiveState}): the
 *       outcomes this node counted since its last claim are added to the row's window, and the
 *       window's end adjusts the limit the claim then counts by.
 * </ul>
 *
 * <p>The limits are those the row holds, which each node writes as it first claims: the nodes of a
 * cluster claim by one set of limits, that of the node that wrote them last ({@link LimitRows}).
 */
final class LimitedClaims {

    private static final Logger logger = LoggerFactory.getLogger(LimitedClaims.class);

    private static final String RUNNING =
            "SELECT COUNT(*) FROM dsched_execution WHERE status = 'RUNNING' AND job_name = ?";

    /** How far ahead of this node's clock a bucket's last refill is taken for a clock gone wrong. */
    private static final Duration FAR_AHEAD = Duration.ofSeconds(2);

    private final ExecutionRows rows;

    private final TransactionTemplate transactions;

    private final String lock;

    private final LimitRows limitRows;

    private final ClaimsByKey byKey;

    LimitedClaims(ExecutionRows rows, TransactionTemplate transactions, LimitRows limitRows) {
        this.rows = rows;
        this.limitRows = limitRows;
        this.byKey = new ClaimsByKey(rows);
        this.transactions = new TransactionTemplate(transactions.getTransactionManager());
        // MySQL and MariaDB would otherwise count from the snapshot of the transaction's first read
        this.transactions.setIsolationLevel(TransactionDefinition.ISOLATION_READ_COMMITTED);
        this.lock = rows.tables.sql("SELECT " + LimitStore.COLUMNS + " FROM dsched_limit WHERE name = ? FOR UPDATE");
    }

    /**
     * Claims due attempts of a target, within its limits.
     * @param nodeId the claiming node
     * @param clock the node's clock: read again once the row is locked, so that the claims are
     *     stamped, and the bucket refilled, as of the time the lock was granted
     * @param limit how many at most this node takes
     * @param name the target
     * @param limits the limits this node declares for it
     * @param outcomes what this node counted of the target's attempts, for an adaptive limit
     * @return the attempts claimed, the higher priority first, then the oldest due
     */
    List<ExecutionRecord> claimDue(
            String nodeId,
            Supplier<Instant> clock,
            int limit,
            String name,
            TargetLimits limits,
            LimitOutcomes outcomes) {
        // no lock taken while nothing of the target is due
        if (this.rows.findDue(clock.get(), 1, List.of(name)).isEmpty()) {
            return List.of();
        }
        this.limitRows.write(name, limits);
        LimitOutcomes.Counted counted = (limits.adaptive() != null) ? outcomes.take(name) : LimitOutcomes.Counted.NONE;
        List<ExecutionRecord> claimed;
        try {
            claimed = this.transactions.execute((tx) -> claimLocked(nodeId, clock, limit, name, limits, counted));
        } catch (RuntimeException ex) {
            outcomes.giveBack(name, counted);
            throw ex;
        }
        if (claimed == null) {
            outcomes.giveBack(name, counted);
            logger.warn("The row of the limits of '{}' was missing; it is written again", name);
            this.limitRows.forget(name);
            return List.of();
        }
        return claimed;
    }

    private List<ExecutionRecord> claimLocked(
            String nodeId,
            Supplier<Instant> clock,
            int limit,
            String name,
            TargetLimits limits,
            LimitOutcomes.Counted counted) {
        List<LimitStore.LimitRow> locked =
                this.rows.jdbc.query(this.lock, (row, number) -> LimitStore.LimitRow.read(this.rows, row), name);
        if (locked.isEmpty()) {
            // the row is gone: without it nothing is locked, so nothing is claimed until it is back
            return null;
        }
        LimitStore.LimitRow row = locked.get(0);
        // the bucket's time only goes forward, whichever node's clock last refilled it, in the
        // milliseconds the row keeps on MySQL; claims are stamped, and found due, by this node's
        // clock, so that nothing starts before its time here
        Instant now = clock.get();
        Instant at = now.truncatedTo(ChronoUnit.MILLIS);
        double tokens = row.tokens();
        if (row.refilledAt() != null && row.refilledAt().isAfter(at.plus(FAR_AHEAD))) {
            // not a refill this node's clock will reach soon: no tokens for it, and the bucket's
            // time set back to this node's
            logger.warn(
                    "The bucket of '{}' was last refilled at {}, far ahead of this node's clock at {}; it"
                            + " is refilled from now",
                    name,
                    row.refilledAt(),
                    at);
        } else if (row.refilledAt() != null && row.refilledAt().isAfter(at)) {
            at = row.refilledAt();
        } else {
            tokens = row.tokensAt(at);
        }
        int room = Math.min(limit, (row.ratePermits() > 0) ? (int) Math.floor(tokens) : Integer.MAX_VALUE);
        // a window that this node's clock has not reached yet (another node's runs ahead) counts as the
        // current one: the row's window never goes back, so no two nodes count one window twice
        long window = Math.max(row.quotaWindowAt(at), row.quotaWindow());
        int used = row.quotaUsedAt(at);
        if (row.quotaPermits() > 0) {
            room = Math.min(room, row.quotaPermits() - used);
        }
        int maxConcurrent = adapt(name, row, limits, counted, at);
        List<ExecutionRecord> attempts = new ArrayList<>();
        // no other node claims these rows meanwhile: they wait for the lock this transaction holds
        TargetLimits.PerPeriod keyRate = TargetLimits.PerPeriod.of(row.keyRatePermits(), row.keyRatePeriodMillis());
        boolean byKey = limits.perKey() && maxConcurrent > 0;
        if (maxConcurrent > 0 && !byKey) {
            Integer running = this.rows.jdbc.queryForObject(this.rows.tables.sql(RUNNING), Integer.class, name);
            room = Math.min(room, maxConcurrent - ((running != null) ? running : 0));
        }
        // the rate of each key is the row's, whatever this node declares: the keys were given at submission
        if (byKey || keyRate != null) {
            this.byKey.claim(nodeId, at, room, name, byKey ? maxConcurrent : 0, keyRate, attempts);
        } else {
            if (room > 0) {
                for (ExecutionRecord candidate : this.rows.findDue(at, room, List.of(name))) {
                    claim(this.rows, candidate, nodeId, at, attempts);
                }
            }
        }
        if (row.ratePermits() > 0 || row.quotaPermits() > 0) {
            boolean quota = row.quotaPermits() > 0;
            this.rows.jdbc.update(
                    this.rows.tables.sql("UPDATE dsched_limit SET tokens = ?, refilled_at = ?, quota_window = ?,"
                            + " quota_used = ? WHERE name = ?"),
                    (row.ratePermits() > 0) ? tokens - attempts.size() : row.tokens(),
                    // a quota's claims keep the time too: a node whose clock is behind the window
                    // another node counted in stamps its claims at that time, in the window they count in
                    this.rows.dialect.bindable(at),
                    quota ? window : row.quotaWindow(),
                    quota ? used + attempts.size() : row.quotaUsed(),
                    name);
        }
        return attempts;
    }

    /**
     * Moves the target's adaptive limit on by the rule its row holds (that of the node that wrote
     * its declaration last), and returns the most of its attempts running at once to claim by; an
     * adapted limit left in a row without a rule is taken back to the limit in force. Only a node
     * that declares the rule counts outcomes to add.
     */
    private int adapt(
            String name, LimitStore.LimitRow row, TargetLimits limits, LimitOutcomes.Counted counted, Instant at) {
        TargetLimits.Adaptive rule = row.adaptiveRule();
        if (rule == null || row.maxConcurrent() <= 0) {
            if (row.adaptive().max() > 0) {
                writeAdaptive(name, new AdaptiveState(0, null, 0, 0, 0));
            }
            return row.maxConcurrent();
        }
        AdaptiveState adapted = row.adaptive().next(rule, row.maxConcurrent(), counted, at);
        if (!adapted.equals(row.adaptive())) {
            writeAdaptive(name, adapted);
        }
        return adapted.max();
    }

    private void writeAdaptive(String name, AdaptiveState state) {
        this.rows.jdbc.update(
                this.rows.tables.sql("UPDATE dsched_limit SET adaptive_max = ?, adapted_at = ?, window_outcomes = ?,"
                        + " window_failures = ?, window_signals = ? WHERE name = ?"),
                state.max(),
                (state.adaptedAt() != null) ? this.rows.dialect.bindable(state.adaptedAt()) : null,
                state.outcomes(),
                state.failures(),
                state.signals(),
                name);
    }

    /** Claims one attempt read as due, and adds it to those claimed, unless another claim took it. */
    static boolean claim(
            ExecutionRows rows, ExecutionRecord candidate, String nodeId, Instant at, List<ExecutionRecord> attempts) {
        if (rows.repository.claimWaiting(candidate.id(), candidate.status().name(), nodeId, at) != 1) {
            return false;
        }
        attempts.add(candidate.claimedBy(nodeId, at));
        return true;
    }
}
