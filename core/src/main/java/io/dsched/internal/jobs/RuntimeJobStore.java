package io.dsched.internal.jobs;

import io.dsched.internal.store.ClusterTables;
import io.dsched.internal.store.ExecutionRepository;
import io.dsched.jobs.RuntimeJobRecord;
import io.dsched.jobs.UnknownJobException;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.jdbc.core.JdbcAggregateOperations;
import org.springframework.jdbc.BadSqlGrammarException;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The storage side of the runtime jobs: their rows in {@code dsched_job}, read afresh, and the
 * writes, each in its transaction, after which the jobs read are stale.
 */
final class RuntimeJobStore {

    private static final Logger logger = LoggerFactory.getLogger(RuntimeJobs.class);

    private final JdbcAggregateOperations aggregates;

    private final JdbcTemplate jdbc;

    private final ClusterTables tables;

    private final ExecutionRepository executions;

    private final TransactionTemplate transactions;

    private final Runnable invalidate;

    RuntimeJobStore(
            JdbcAggregateOperations aggregates,
            JdbcTemplate jdbc,
            ClusterTables tables,
            ExecutionRepository executions,
            TransactionTemplate transactions,
            Runnable invalidate) {
        this.aggregates = aggregates;
        this.jdbc = jdbc;
        this.tables = tables;
        this.executions = executions;
        this.transactions = transactions;
        this.invalidate = invalidate;
    }

    Optional<RuntimeJobRecord> record(String name) {
        return Optional.ofNullable(this.aggregates.findById(name, RuntimeJobRecord.class));
    }

    /**
     * Stores a new job, split as it says: shards set at run time under its name before (for a job
     * of that name deleted, or declared and removed) are taken back once it is stored, before its
     * trigger is, so that no fire of it is split by them and a creation that fails takes none back.
     */
    void insert(RuntimeJobRecord job) {
        this.aggregates.insert(job);
        this.invalidate.run();
        takeBackShards(job.name());
    }

    /**
     * Changes a job, and its trigger with it when its schedule changes, in a transaction that
     * holds the job's row from the read to the commit: two changes of one job made at once on two
     * nodes take turns, each from what the other wrote, and a trigger that cannot be written
     * leaves the stored job as it was. Should the commit fail after the trigger was written, the
     * trigger is put back as the job was.
     * @param name the job
     * @param change makes the changed job from the stored one
     * @param trigger writes the trigger of a job
     * @throws UnknownJobException if there is no such job
     */
    void change(String name, UnaryOperator<RuntimeJobRecord> change, Consumer<RuntimeJobRecord> trigger) {
        AtomicReference<RuntimeJobRecord> replaced = new AtomicReference<>();
        try {
            this.transactions.executeWithoutResult((status) -> {
                RuntimeJobRecord current = locked(name);
                RuntimeJobRecord updated = change.apply(current);
                this.aggregates.update(updated);
                if (!updated.schedule().equals(current.schedule())) {
                    trigger.accept(updated);
                    replaced.set(current);
                }
            });
        } catch (RuntimeException ex) {
            RuntimeJobRecord before = replaced.get();
            if (before != null) {
                restore(name, () -> trigger.accept(before), ex);
            }
            throw ex;
        } finally {
            this.invalidate.run();
        }
    }

    private RuntimeJobRecord locked(String name) {
        // the row's lock first, then the row: Spring Data's reads take no lock
        if (this.jdbc
                .queryForList(
                        this.tables.sql("SELECT name FROM dsched_job WHERE name = ? FOR UPDATE"), String.class, name)
                .isEmpty()) {
            throw new UnknownJobException("No job named '" + name + "' was defined at run time");
        }
        return this.aggregates.findById(name, RuntimeJobRecord.class);
    }

    private static void restore(String name, Runnable restore, RuntimeException cause) {
        try {
            restore.run();
        } catch (RuntimeException ex) {
            cause.addSuppressed(ex);
            logger.error(
                    "Could not put back the trigger of runtime job '{}' after its change failed: it fires on the new"
                            + " schedule while the stored one is the old, until the job is changed again",
                    name,
                    ex);
        }
    }

    /**
     * Deletes a job and cancels its waiting attempts, in one transaction; then the shards set for
     * it at run time, which would otherwise split the fires of a job created again under its name.
     */
    void delete(String name, Instant now) {
        this.transactions.executeWithoutResult((status) -> {
            this.aggregates.deleteById(name, RuntimeJobRecord.class);
            this.executions.cancelWaiting(name, now, "job deleted");
        });
        this.invalidate.run();
        try {
            takeBackShards(name);
        } catch (RuntimeException ex) {
            logger.warn("Could not take back the shards set for deleted job '{}': {}", name, ex.getMessage());
        }
    }

    /**
     * Deletes the shards set at run time for a job's name; a database without their table (created
     * before shards could be set, its schema managed by hand) has none to delete.
     */
    private void takeBackShards(String name) {
        try {
            this.jdbc.update(this.tables.sql("DELETE FROM dsched_job_shards WHERE job_name = ?"), name);
        } catch (BadSqlGrammarException ex) {
            logger.debug("No shards set at run time to take back for '{}': {}", name, ex.getMessage());
        }
    }
}
