package io.dsched.internal.store;

import io.dsched.execution.ExecutionRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Claims the due attempts of a target with a cluster-wide concurrency limit: under the lock of the
 * limit's row in {@code dsched_limit}, which every node that claims the target's attempts takes
 * first, it counts the target's attempts running in the database and claims no more than the
 * slots left. The count is read after the lock, in read-committed isolation, so it sees every
 * claim committed before; as claims of the target are made under the lock alone, two nodes never
 * fill the same slot. A slot comes back when its attempt stops running: its outcome, a takeover
 * of its dead node, or its return to wait. The limit is the one the row holds, which each node
 * writes as it first claims: the nodes of a cluster claim by one limit, that of the node that
 * started last.
 */
final class LimitedClaims {

    private static final Logger logger = LoggerFactory.getLogger(LimitedClaims.class);

    private static final String LOCK = "SELECT max_concurrent FROM dsched_limit WHERE name = ? FOR UPDATE";

    private static final String RUNNING =
            "SELECT COUNT(*) FROM dsched_execution WHERE status = 'RUNNING' AND job_name = ?";

    private final ExecutionRows rows;

    private final TransactionTemplate transactions;

    /** The limits this node wrote to their rows, by target. */
    private final Map<String, Integer> written = new ConcurrentHashMap<>();

    LimitedClaims(ExecutionRows rows, TransactionTemplate transactions) {
        this.rows = rows;
        this.transactions = new TransactionTemplate(transactions.getTransactionManager());
        // MySQL and MariaDB would otherwise count from the snapshot of the transaction's first read
        this.transactions.setIsolationLevel(TransactionDefinition.ISOLATION_READ_COMMITTED);
    }

    /**
     * Claims due attempts of a target, within its limit.
     * @param nodeId the claiming node
     * @param now the current time
     * @param limit how many at most this node takes
     * @param name the target
     * @param maxConcurrent the limit this node declares for it
     * @return the attempts claimed, oldest due first
     */
    List<ExecutionRecord> claimDue(String nodeId, Instant now, int limit, String name, int maxConcurrent) {
        ExecutionRepository repository = this.rows.repository;
        // no lock taken while nothing of the target is due
        if (repository.findDue(now, 1, List.of(name)).isEmpty()) {
            return List.of();
        }
        write(name, maxConcurrent);
        List<ExecutionRecord> claimed = this.transactions.execute((tx) -> {
            List<Integer> locked = this.rows.jdbc.queryForList(this.rows.tables.sql(LOCK), Integer.class, name);
            if (locked.isEmpty()) {
                // the row is gone: without it nothing is locked, so nothing is claimed until it is back
                return null;
            }
            Integer running = this.rows.jdbc.queryForObject(this.rows.tables.sql(RUNNING), Integer.class, name);
            int room = Math.min(limit, locked.get(0) - ((running != null) ? running : 0));
            List<ExecutionRecord> attempts = new ArrayList<>();
            if (room <= 0) {
                return attempts;
            }
            // no other node claims these rows meanwhile: they wait for the lock this transaction holds
            for (ExecutionRecord candidate : repository.findDue(now, room, List.of(name))) {
                if (repository.claimWaiting(candidate.id(), candidate.status().name(), nodeId, now) == 1) {
                    attempts.add(candidate.claimedBy(nodeId, now));
                }
            }
            return attempts;
        });
        if (claimed == null) {
            logger.warn("The row of the concurrency limit of '{}' was missing; it is written again", name);
            this.written.remove(name);
            return List.of();
        }
        return claimed;
    }

    /** Writes the limit this node declares to its row, once: the last node to start sets it. */
    private void write(String name, int maxConcurrent) {
        if (Integer.valueOf(maxConcurrent).equals(this.written.get(name))) {
            return;
        }
        String update = this.rows.tables.sql("UPDATE dsched_limit SET max_concurrent = ? WHERE name = ?");
        if (this.rows.jdbc.update(update, maxConcurrent, name) == 0) {
            try {
                this.rows.jdbc.update(
                        this.rows.tables.sql(
                                "INSERT INTO dsched_limit (name, max_concurrent, created_at) VALUES (?, ?, "
                                        + this.rows.dialect.currentTimestampSql() + ")"),
                        name,
                        maxConcurrent);
            } catch (DuplicateKeyException ex) {
                // another node wrote it meanwhile, with its own limit
                this.rows.jdbc.update(update, maxConcurrent, name);
            }
        }
        this.written.put(name, maxConcurrent);
    }
}
