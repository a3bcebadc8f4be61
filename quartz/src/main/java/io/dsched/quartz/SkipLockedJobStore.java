package io.dsched.quartz;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import org.quartz.JobDetail;
import org.quartz.JobPersistenceException;
import org.quartz.TriggerKey;
import org.quartz.impl.jdbcjobstore.FiredTriggerRecord;
import org.quartz.spi.OperableTrigger;
import org.quartz.spi.TriggerFiredBundle;
import org.quartz.spi.TriggerFiredResult;

/**
 * Quartz's clustered JDBC store with its hot path taken out from under the cluster-wide lock.
 *
 * <p>Stock Quartz acquires, fires and completes every trigger while holding one row of its locks
 * table ({@code TRIGGER_ACCESS}), so the whole cluster hands out fires one transaction at a time.
 * This store does those three steps without that lock:
 *
 * <ul>
 *   <li><b>acquire</b> selects due waiting triggers with {@code FOR UPDATE SKIP LOCKED}, so that
 *       nodes acquiring at once take disjoint triggers instead of queueing for one lock, and
 *       moves each from WAITING to ACQUIRED with a conditional update;
 *   <li><b>fire</b> first locks the rows of the triggers it fires, in key order, so that nothing
 *       can change a trigger between Quartz's check that it is still acquired and its write of
 *       the next fire time: a pause arriving meanwhile waits for that write and then wins;
 *   <li><b>complete</b> touches only the rows of its own job.
 * </ul>
 *
 * <p>Given {@link FireClaims} ({@link StoreHooks}), the transaction that fires triggers also does
 * the application's work for them behind a savepoint; dsched claims the fires with their jobs'
 * guards there, so that a worker starts on the job at once and a fire commits with its claim or
 * not at all. If the claims fail, they are rolled back to the savepoint and the fires go on.
 *
 * <p>Everything else (scheduling, pausing, misfire handling, recovery of failed nodes) keeps
 * Quartz's lock; what the clock decides is governed as {@link ClusterJobStore} says. A fire is
 * never dropped: a trigger leaves WAITING only inside the transaction that records its
 * acquisition, which a failed node's recovery puts back. Its safety for a job with one trigger
 * rests on that trigger's row lock: the states Quartz derives for a job's other triggers (for
 * {@code @DisallowConcurrentExecution}) are written to rows another node may hold.
 *
 * <p>Needs {@code SKIP LOCKED} (PostgreSQL, MariaDB 10.6+; MySQL 8 has it too, untested) and one
 * of the delegates of {@link SkipLockedDelegates}, which add it to Quartz's selection of due
 * triggers. H2 keeps the stock store.
 */
public class SkipLockedJobStore extends ClusterJobStore {

    private static final Comparator<OperableTrigger> KEY_ORDER = Comparator.comparing(
                    (OperableTrigger trigger) -> trigger.getKey().getGroup())
            .thenComparing((trigger) -> trigger.getKey().getName());

    private volatile Boolean repeatableReadByDefault;

    /**
     * Hands out connections that read what is committed. MySQL and MariaDB default to REPEATABLE
     * READ, where a plain read in a transaction sees the snapshot of its first read: with no
     * cluster-wide lock to order them, an acquisition could then act on a trigger as another node
     * left it before firing it, and leave it acquired with no fire to run it. PostgreSQL's default
     * is READ COMMITTED already.
     */
    @Override
    protected Connection getNonManagedTXConnection() throws JobPersistenceException {
        Connection conn = super.getNonManagedTXConnection();
        try {
            if (repeatableReadByDefault(conn)) {
                conn.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
            }
        } catch (SQLException ex) {
            closeConnection(conn);
            throw new JobPersistenceException("Couldn't set the isolation of a connection: " + ex.getMessage(), ex);
        }
        return conn;
    }

    private boolean repeatableReadByDefault(Connection conn) throws SQLException {
        Boolean known = this.repeatableReadByDefault;
        if (known == null) {
            String product = conn.getMetaData().getDatabaseProductName().toLowerCase(java.util.Locale.ROOT);
            known = product.contains("mysql") || product.contains("mariadb");
            this.repeatableReadByDefault = known;
        }
        return known;
    }

    @Override
    public List<OperableTrigger> acquireNextTriggers(long noLaterThan, int maxCount, long timeWindow)
            throws JobPersistenceException {
        if (!takesFires()) {
            return List.of();
        }
        // the delegate's selection skips locked rows: no cluster-wide lock
        return executeInNonManagedTXLock(
                null,
                (conn) -> acquireNextTrigger(conn, noLaterThan, maxCount, timeWindow),
                (conn, acquired) -> recorded(conn, acquired.stream().map(OperableTrigger::getFireInstanceId), null));
    }

    @Override
    public List<TriggerFiredResult> triggersFired(List<OperableTrigger> triggers) throws JobPersistenceException {
        FireClaims claims = claims();
        AtomicReference<Runnable> handOver = new AtomicReference<>();
        List<TriggerFiredResult> fired = executeInNonManagedTXLock(
                null,
                (conn) -> {
                    List<OperableTrigger> ordered = new ArrayList<>(triggers);
                    ordered.sort(KEY_ORDER);
                    for (OperableTrigger trigger : ordered) {
                        lockRow(conn, trigger.getKey());
                    }
                    List<TriggerFiredResult> results = new ArrayList<>(triggers.size());
                    for (OperableTrigger trigger : triggers) {
                        try {
                            results.add(new TriggerFiredResult(triggerFired(conn, trigger)));
                        } catch (JobPersistenceException | RuntimeException ex) {
                            results.add(new TriggerFiredResult(ex));
                        }
                    }
                    if (claims != null) {
                        handOver.set(claimAhead(conn, claims, results));
                    }
                    return results;
                },
                (conn, results) -> recorded(
                        conn,
                        results.stream()
                                .filter((result) -> result.getTriggerFiredBundle() != null)
                                .map((result) -> result.getTriggerFiredBundle()
                                        .getTrigger()
                                        .getFireInstanceId()),
                        STATE_EXECUTING));
        Runnable claimed = handOver.get();
        if (claimed != null) {
            // committed: the workers find their fires claimed
            claimed.run();
        }
        return fired;
    }

    private Runnable claimAhead(Connection conn, FireClaims claims, List<TriggerFiredResult> results)
            throws JobPersistenceException {
        List<TriggerFiredBundle> bundles = results.stream()
                .map(TriggerFiredResult::getTriggerFiredBundle)
                .filter(java.util.Objects::nonNull)
                .toList();
        if (bundles.isEmpty()) {
            return null;
        }
        Savepoint beforeClaims = null;
        try {
            beforeClaims = conn.setSavepoint("dsched_claims");
            return claims.claim(conn, bundles);
        } catch (SQLException | RuntimeException ex) {
            // the fires go on: each worker claims its own
            getLog().debug("Not claiming fires in the transaction that fires them: " + ex.getMessage());
            rollBackTo(conn, beforeClaims);
            return null;
        }
    }

    @Override
    public void triggeredJobComplete(
            OperableTrigger trigger,
            JobDetail jobDetail,
            org.quartz.Trigger.CompletedExecutionInstruction instruction) {
        retryExecuteInNonManagedTXLock(null, (conn) -> {
            triggeredJobComplete(conn, trigger, jobDetail, instruction);
            return null;
        });
    }

    /**
     * Puts back a trigger this node acquired but does not fire (its fire came too late, or its
     * schedule changed meanwhile), without the cluster-wide lock: Quartz's own release waits for
     * {@code TRIGGER_ACCESS}, and while another session holds it the scheduler's thread would wait
     * with it and fire nothing more. The release is a conditional update of the trigger's own row
     * (acquired to waiting) and the delete of this node's record of it.
     */
    @Override
    public void releaseAcquiredTrigger(OperableTrigger trigger) {
        retryExecuteInNonManagedTXLock(null, (conn) -> {
            releaseAcquiredTrigger(conn, trigger);
            return null;
        });
    }

    private static void rollBackTo(Connection conn, Savepoint savepoint) throws JobPersistenceException {
        try {
            if (savepoint != null) {
                conn.rollback(savepoint);
            }
        } catch (SQLException rollback) {
            throw new JobPersistenceException("Couldn't roll back to a savepoint: " + rollback.getMessage(), rollback);
        }
    }

    private void lockRow(Connection conn, TriggerKey key) throws JobPersistenceException {
        String sql = "SELECT TRIGGER_STATE FROM " + getTablePrefix() + "TRIGGERS"
                + " WHERE SCHED_NAME = ? AND TRIGGER_NAME = ? AND TRIGGER_GROUP = ? FOR UPDATE";
        try (PreparedStatement statement = conn.prepareStatement(sql)) {
            statement.setString(1, getInstanceName());
            statement.setString(2, key.getName());
            statement.setString(3, key.getGroup());
            try (ResultSet rows = statement.executeQuery()) {
                // a trigger deleted meanwhile has no row: Quartz's own check then skips its fire
                rows.next();
            }
        } catch (SQLException ex) {
            throw new JobPersistenceException("Couldn't lock trigger " + key + ": " + ex.getMessage(), ex);
        }
    }

    /**
     * After a commit whose answer was lost: whether the transaction did commit, judged by the
     * fired-trigger records of this node.
     */
    private Boolean recorded(Connection conn, java.util.stream.Stream<String> fireInstanceIds, String state)
            throws JobPersistenceException {
        try {
            Set<String> stored = new HashSet<>();
            for (FiredTriggerRecord record : getDelegate().selectInstancesFiredTriggerRecords(conn, getInstanceId())) {
                if (state == null || state.equals(record.getFireInstanceState())) {
                    stored.add(record.getFireInstanceId());
                }
            }
            return fireInstanceIds.anyMatch(stored::contains);
        } catch (SQLException ex) {
            throw new JobPersistenceException("Couldn't check the outcome of a commit: " + ex.getMessage(), ex);
        }
    }
}
