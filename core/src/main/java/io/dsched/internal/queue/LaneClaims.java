package io.dsched.internal.queue;

import io.dsched.execution.ExecutionRecord;
import io.dsched.internal.execution.ConcurrencyLimits;
import io.dsched.internal.execution.Rate;
import io.dsched.internal.store.ExecutionStore;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
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

    private final Clock clock;

    /** Counts the claims, which take turns at what they claim first. */
    private int turns;

    LaneClaims(ExecutionStore store, String nodeId, ConcurrencyLimits limits, Clock clock) {
        this.store = store;
        this.nodeId = nodeId;
        this.limits = limits;
        this.clock = clock;
    }

    /**
     * Claims the due attempts of the targets with a cluster-wide limit, each within its limit, and
     * those of the others: by turns the limited ones first and the others first, and among the
     * limited each first in turn, so that neither a backlog of unlimited attempts keeps a limited
     * target's free slots unused nor one of limited attempts the others' workers. Each claim is a
     * transaction of its own: one that fails leaves those made before it to run, and is logged.
     */
    List<ExecutionRecord> claim(Set<String> names, Instant now, int free) {
        List<String> limited = new ArrayList<>();
        Set<String> open = new LinkedHashSet<>();
        for (String name : names) {
            (this.limits.limits(name) ? limited : open).add(name);
        }
        int turn = this.turns;
        this.turns = (turn + 1) & Integer.MAX_VALUE;
        if (!limited.isEmpty()) {
            // each takes its turn first on the turns the limited attempts are claimed first
            Collections.rotate(limited, (turn >>> 1) % limited.size());
        }
        List<ExecutionRecord> claimed = new ArrayList<>();
        List<RuntimeException> failures = new ArrayList<>();
        boolean openFirst = turn % 2 == 1;
        if (openFirst) {
            claimOpen(open, now, free, claimed, failures);
        }
        for (String name : limited) {
            if (claimed.size() < free) {
                try {
                    Rate rate = this.limits.rate(name);
                    claimed.addAll(this.store
                            .claims()
                            .claimDue(
                                    this.nodeId,
                                    this.clock::instant,
                                    free - claimed.size(),
                                    name,
                                    this.limits.maxConcurrent(name),
                                    (rate != null) ? rate.permits() : 0,
                                    (rate != null) ? rate.period() : null,
                                    this.limits.perKey(name)));
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
