package io.dsched.internal.store;

import io.dsched.execution.ExecutionRecord;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Claims the due attempts of a target with a cluster-wide concurrency limit: under the lock of the
 * limit's row in {@code dsched_limit}, which every node that claims the target's attempts takes
 * first, it counts the target's attempts running in the database and claims no more than the
 * slots left. The count is read after the lock, in read-committed isolation, so it sees every
 * claim committed before; as claims of the target are made under the lock alone, two nodes never
 * fill the same slot. A slot comes back when its attempt stops running: its outcome, a takeover
 * of its dead node, or its return to wait.
 */
final class LimitedClaims {

    private static final String LOCK = "SELECT name FROM dsched_limit WHERE name = ? FOR UPDATE";

    private static final String RUNNING =
            "SELECT COUNT(*) FROM dsched_execution WHERE status = 'RUNNING' AND job_name = ?";

    private final ExecutionRows rows;

    private final TransactionTemplate transactions;

    /** The limits whose row this node knows to exist. */
    private final Set<String> created = ConcurrentHashMap.newKeySet();

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
     * @param maxConcurrent the most of its attempts running at once in the cluster
     * @return the attempts claimed, oldest due first
     */
    List<ExecutionRecord> claimDue(String nodeId, Instant now, int limit, String name, int maxConcurrent) {
        createRow(name);
        return this.transactions.execute((tx) -> {
            this.rows.jdbc.queryForList(this.rows.tables.sql(LOCK), String.class, name);
            Integer running = this.rows.jdbc.queryForObject(this.rows.tables.sql(RUNNING), Integer.class, name);
            int room = Math.min(limit, maxConcurrent - ((running != null) ? running : 0));
            List<ExecutionRecord> claimed = new ArrayList<>();
            if (room <= 0) {
                return claimed;
            }
            // no other node claims these rows meanwhile: they wait for the lock this transaction holds
            ExecutionRepository repository = this.rows.repository;
            for (ExecutionRecord candidate : repository.findDue(now, room, List.of(name))) {
                if (repository.claimWaiting(candidate.id(), candidate.status().name(), nodeId, now) == 1) {
                    claimed.add(candidate.claimedBy(nodeId, now));
                }
            }
            return claimed;
        });
    }

    /** Writes the limit's row, once: the lock of a row that does not exist locks nothing. */
    private void createRow(String name) {
        if (this.created.contains(name)) {
            return;
        }
        try {
            this.rows.jdbc.update(
                    this.rows.tables.sql("INSERT INTO dsched_limit (name, created_at) VALUES (?, "
                            + this.rows.dialect.currentTimestampSql() + ")"),
                    name);
        } catch (DataIntegrityViolationException ex) {
            // another node wrote it
        }
        this.created.add(name);
    }
}
