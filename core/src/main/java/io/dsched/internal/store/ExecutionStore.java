package io.dsched.internal.store;

import io.dsched.quartz.StartBacklog;
import java.util.Optional;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * dsched's store of attempts, {@code dsched_execution}, cut by what its callers do: {@link
 * #inserts() inserts} of claims and waiting attempts, {@link #claims() claims} of due attempts,
 * {@link #outcomes() outcomes} of running ones, {@link #rescues() rescues} of those whose
 * worker is gone, {@link #cancels() cancellation}, and reads through the {@link #repository()
 * repository}. What differs by database is the {@link SqlDialect}'s.
 */
public class ExecutionStore implements AutoCloseable {

    private final ExecutionRepository repository;

    private final ExecutionTraces traces;

    private final CancelRequests cancels;

    private final ExecutionInserts inserts;

    private final ExecutionClaims claims;

    private final ExecutionOutcomes outcomes;

    private final ExecutionRescues rescues;

    private final ShardedFires shardedFires;

    private final ShardSettings shardSettings;

    private final LimitStore limits;

    /**
     * Creates a store.
     * @param repository the repository of executions
     * @param deadLetters the repository of dead letters
     * @param transactions transactions on dsched's DataSource
     * @param dataSource dsched's DataSource
     * @param platform its database
     * @param tables the cluster's tables
     * @param skipLocked whether to claim due attempts in batches with {@code FOR UPDATE SKIP
     *     LOCKED}; ignored on a database without it (H2), which claims each by a conditional update
     * @param backlog the node's fires due and not started, which the outcomes of successes are
     *     written after
     */
    public ExecutionStore(
            ExecutionRepository repository,
            DeadLetterRepository deadLetters,
            TransactionTemplate transactions,
            DataSource dataSource,
            DatabasePlatform platform,
            ClusterTables tables,
            boolean skipLocked,
            StartBacklog backlog) {
        SqlDialect dialect = platform.dialect();
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        ExecutionRows rows = new ExecutionRows(jdbc, tables, dialect, repository);
        this.repository = repository;
        this.traces = new ExecutionTraces(jdbc, dialect, tables);
        this.cancels = new CancelRequests(jdbc, dialect, tables, transactions);
        this.inserts = new ExecutionInserts(rows, transactions, this.traces);
        LimitRows limitRows = new LimitRows(rows);
        this.claims = new ExecutionClaims(rows, transactions, skipLocked, limitRows);
        this.limits = new LimitStore(rows, limitRows);
        this.outcomes = new ExecutionOutcomes(
                repository,
                deadLetters,
                transactions,
                this.inserts,
                new GroupedSuccesses(jdbc, dialect, tables, transactions, backlog),
                this.cancels);
        this.rescues = new ExecutionRescues(repository, deadLetters, transactions, this.inserts, this.cancels);
        this.shardedFires = new ShardedFires(rows);
        this.shardSettings = new ShardSettings(rows);
    }

    /**
     * Returns the shard counts and parameters set at run time.
     * @return the settings
     */
    public ShardSettings shardSettings() {
        return this.shardSettings;
    }

    /**
     * Returns the fires of sharded jobs as the queue sees them.
     * @return the sharded fires
     */
    public ShardedFires shardedFires() {
        return this.shardedFires;
    }

    /**
     * Returns the cluster-wide limits of targets, their use, and their changes at run time.
     * @return the limits
     */
    public LimitStore limits() {
        return this.limits;
    }

    /**
     * Returns the inserts of attempts: claims, waiting attempts, batches.
     * @return the inserts
     */
    public ExecutionInserts inserts() {
        return this.inserts;
    }

    /**
     * Returns the claims of waiting attempts that have fallen due.
     * @return the claims
     */
    public ExecutionClaims claims() {
        return this.claims;
    }

    /**
     * Returns the outcomes of running attempts.
     * @return the outcomes
     */
    public ExecutionOutcomes outcomes() {
        return this.outcomes;
    }

    /**
     * Returns the takeover of attempts whose node died.
     * @return the rescues
     */
    public ExecutionRescues rescues() {
        return this.rescues;
    }

    /**
     * Returns the cancellation of attempts.
     * @return the requests to cancel attempts
     */
    public CancelRequests cancels() {
        return this.cancels;
    }

    /**
     * Returns the repository, for queries over the history.
     * @return the repository
     */
    public ExecutionRepository repository() {
        return this.repository;
    }

    /**
     * Returns the trace context a fire was submitted in.
     * @param idempotencyKey the fire's key
     * @return its propagation fields, encoded, or empty if it was submitted outside a trace
     */
    public Optional<String> traceCarrier(String idempotencyKey) {
        return this.traces.find(idempotencyKey);
    }

    /** Writes the outcomes still waiting for their commit, then stops the writer. */
    @Override
    public void close() {
        this.outcomes.close();
    }

    /** The error class recorded for an attempt whose node died while running it. */
    public static final class NodeLostException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        private NodeLostException() {}
    }
}
