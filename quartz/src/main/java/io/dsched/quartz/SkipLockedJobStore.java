package io.dsched.quartz;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;
import org.quartz.JobDetail;
import org.quartz.JobKey;
import org.quartz.JobPersistenceException;
import org.quartz.Trigger.CompletedExecutionInstruction;
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
 * This store does those steps without that lock and orders them by the rows they change instead:
 * a job's row in {@code JOB_DETAILS} for the job, a trigger's row in {@code TRIGGERS} for the
 * trigger; a transaction that takes several takes jobs before triggers, each table's with one
 * statement, in the database's order of the keys.
 *
 * <ul>
 *   <li><b>acquire</b> selects due waiting triggers with {@code FOR UPDATE SKIP LOCKED}, so that
 *       nodes acquiring at once take disjoint triggers instead of queueing for one lock, and
 *       moves each from WAITING to ACQUIRED with a conditional update. It waits for no lock.
 *   <li><b>fire</b> locks the rows of the jobs that disallow concurrent execution, then of the
 *       triggers it fires; then, as Quartz does, it checks that each trigger is still acquired,
 *       records the fire, blocks the job's other triggers and writes the next fire time.
 *   <li><b>complete</b> locks the job's row if the job disallows concurrent execution or persists
 *       its data (stock Quartz takes its cluster-wide lock for every completion), then unblocks
 *       the job's triggers and writes its data, as Quartz does.
 *   <li><b>release</b> of a trigger acquired but not fired locks the job's row (if it disallows
 *       concurrency) and the trigger's, and puts it back as {@link ClusterJobStore} says.
 * </ul>
 *
 * <p>Why each fire is still fired once, and a job that disallows concurrent execution still runs
 * once at a time across the cluster, whatever the number of its triggers:
 *
 * <ul>
 *   <li>A trigger is fired only while it is ACQUIRED and its row is held, and the fire moves it out
 *       of ACQUIRED in the same transaction; only one transaction at a time can move it from WAITING
 *       to ACQUIRED. So between Quartz's check and its write of the next fire time nothing changes
 *       the trigger: a pause arriving meanwhile waits for that write and then wins.
 *   <li>For a job that disallows concurrent execution, every transaction that decides or changes
 *       whether the job's triggers are blocked holds the job's row: a fire, a completion, a
 *       release, storing, replacing, pausing, resuming or removing a trigger, the misfire handler,
 *       a calendar's change and the recovery of a failed node. Two fires of the job on two nodes
 *       therefore run one after the other, and the second finds its trigger blocked; a trigger
 *       stored while a fire is recorded sees the fire. The acquisition holds no job row: it takes
 *       a trigger only while it is WAITING, and a fire's blocking of the job's triggers waits for
 *       the rows an acquisition holds, then blocks the triggers it acquired as well.
 *   <li>A job that persists its data ({@code @PersistJobDataAfterExecution}) and disallows
 *       concurrent execution writes its data in the transaction that unblocks its triggers, under
 *       its row, so the next fire reads what the last one wrote. Without
 *       {@code @DisallowConcurrentExecution} Quartz promises no order of the writes (the last one
 *       wins), and neither does this store.
 *   <li>What reads a trigger, computes its next fire time and writes it back outside a fire keeps
 *       Quartz's lock, and since fires do not take it, locks the rows first: Quartz's misfire
 *       handler (the delegates of {@link SkipLockedDelegates} select misfired triggers locked) and
 *       the change of a calendar that updates its triggers. A fire in between would otherwise be
 *       overwritten by a next fire time computed from before it, and fire again.
 * </ul>
 *
 * <p>Everything else (scheduling, pausing, resuming, unscheduling, calendars, misfire handling,
 * the recovery of failed nodes) keeps Quartz's lock as well; what the clock decides is governed as
 * {@link ClusterJobStore} says. A fire is never dropped: a trigger leaves WAITING only inside the
 * transaction that records its acquisition, which a failed node's recovery puts back.
 *
 * <p>Quartz's operations over several jobs at once (pausing or resuming groups or several jobs)
 * change the triggers' rows in the database's order rather than this store's, and may meet a fire
 * in a deadlock, which the database breaks by failing one of them: a failed fire puts its
 * triggers back and fires them on the next pass, a failed call throws and can be repeated. A fire
 * whose transaction meets any database error fails as a whole, so that no trigger is fired in a
 * transaction that lost its locks.
 *
 * <p>Given {@link FireClaims} ({@link StoreHooks}), the transaction that fires triggers also does
 * the application's work for them behind a savepoint; dsched claims the fires with their jobs'
 * guards there, so that a worker starts on the job at once and a fire commits with its claim or
 * not at all. If the claims fail, they are rolled back to the savepoint and the fires go on.
 *
 * <p>Given a lead ({@link #setFireAheadMillis}), it fires each trigger ahead of its time
 * ({@link FiringAhead}), so that at the due instant the application's pool only starts the job.
 *
 * <p>Needs {@code SKIP LOCKED} (PostgreSQL, MariaDB 10.6+; MySQL 8 has it too, untested) and one
 * of the delegates of {@link SkipLockedDelegates}, which add it to Quartz's selection of due
 * triggers. H2 keeps the stock store ({@link ClusterJobStore}).
 */
public class SkipLockedJobStore extends JobLockingStore {

    /** How long a stop waits for the fires that ended to be recorded complete. */
    private static final long COMPLETIONS_AT_STOP_MILLIS = 10_000;

    private volatile Boolean repeatableReadByDefault;

    private final FiringAhead ahead = new FiringAhead(this);

    private final GroupedCompletions completions = new GroupedCompletions(this);

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

    /**
     * Sets how long before their time triggers are fired: each is then acquired, fired and claimed
     * in one go at least this long before it is due, and handed to Quartz as due at once; the
     * application's thread pool starts each job at its scheduled time ({@link FiringAhead}). 0 (the
     * default) fires each trigger at its time, as Quartz does. Needs {@link FireClaims} that take
     * over a fire no worker starts ({@link FireClaims#left}); without them triggers fire at their
     * time. Set as {@code org.quartz.jobStore.fireAheadMillis}.
     * @param millis the lead, in milliseconds
     */
    public void setFireAheadMillis(long millis) {
        if (millis < 0) {
            throw new IllegalArgumentException("The fire-ahead lead must not be negative: " + millis);
        }
        this.ahead.lead(millis);
    }

    /**
     * Returns how long before their time triggers are fired.
     * @return the lead in milliseconds, 0 if triggers fire at their time
     */
    public long getFireAheadMillis() {
        return this.ahead.lead();
    }

    @Override
    public List<OperableTrigger> acquireNextTriggers(long noLaterThan, int maxCount, long timeWindow)
            throws JobPersistenceException {
        if (!takesFires()) {
            return List.of();
        }
        if (this.ahead.lead() > 0 && claims() != null && claims().takesLeftFires()) {
            return this.ahead.fire(noLaterThan, maxCount);
        }
        return acquire(noLaterThan, maxCount, timeWindow);
    }

    /** Wakes Quartz's scheduler thread to look for due triggers now, if it idles. */
    void lookAgain() {
        signalSchedulingChangeImmediately(0L);
    }

    /** Acquires due triggers; the delegate's selection skips locked rows: no cluster-wide lock. */
    List<OperableTrigger> acquire(long noLaterThan, int maxCount, long timeWindow) throws JobPersistenceException {
        return executeInNonManagedTXLock(
                null,
                (conn) -> acquireNextTrigger(conn, noLaterThan, maxCount, timeWindow),
                (conn, acquired) -> recorded(conn, acquired.stream().map(OperableTrigger::getFireInstanceId), null));
    }

    /**
     * Does work in a transaction of its own, outside Quartz's lock.
     * @param work the work
     * @return what it returns
     * @throws JobPersistenceException if it fails
     */
    <T> T inTransaction(Work<T> work) throws JobPersistenceException {
        return executeInNonManagedTXLock(null, work::in, null);
    }

    /** Work on a connection inside a transaction. */
    @FunctionalInterface
    interface Work<T> {

        T in(Connection conn) throws JobPersistenceException;
    }

    /** Hands out the fires of triggers fired ahead, and fires the others now. */
    @Override
    public List<TriggerFiredResult> triggersFired(List<OperableTrigger> triggers) throws JobPersistenceException {
        return this.ahead.handOut(triggers);
    }

    /**
     * Fires triggers in one transaction, with the application's claims.
     * @param triggers the acquired triggers
     * @return the fire of each, in order
     * @throws JobPersistenceException if the transaction fails; the triggers stay acquired
     */
    List<TriggerFiredResult> fireNow(List<OperableTrigger> triggers) throws JobPersistenceException {
        FireClaims claims = claims();
        AtomicReference<FireClaims.Claimed> handOver = new AtomicReference<>();
        List<TriggerFiredResult> fired = null;
        try {
            fired = executeInNonManagedTXLock(
                    null,
                    (conn) -> {
                        Set<JobKey> serialised = new TreeSet<>();
                        List<TriggerKey> keys = new ArrayList<>();
                        for (OperableTrigger trigger : triggers) {
                            keys.add(trigger.getKey());
                            if (disallowsConcurrency(conn, trigger.getJobKey())) {
                                serialised.add(trigger.getJobKey());
                            }
                        }
                        lockJobs(conn, serialised);
                        lockTriggers(conn, keys);
                        List<TriggerFiredResult> results = new ArrayList<>(triggers.size());
                        firing(serialised);
                        try {
                            for (OperableTrigger trigger : triggers) {
                                results.add(fire(conn, trigger));
                            }
                        } finally {
                            firing(null);
                        }
                        if (claims != null) {
                            handOver.set(ClaimsBehindSavepoint.claim(conn, claims, results, getLog()));
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
        } finally {
            FireClaims.Claimed claimed = handOver.get();
            if (claimed != null && fired != null) {
                // committed: the workers find their fires claimed
                claimed.committed();
            } else if (claimed != null) {
                // rolled back (the triggers fire again), or not known to have committed
                claimed.notCommitted();
            }
        }
        return fired;
    }

    /**
     * Fires one trigger as Quartz does; a database error fails the whole transaction, since on some
     * databases it has rolled back what came before, locks included.
     */
    private TriggerFiredResult fire(Connection conn, OperableTrigger trigger) throws JobPersistenceException {
        try {
            return new TriggerFiredResult(triggerFired(conn, trigger));
        } catch (FireAgain ex) {
            throw ex;
        } catch (JobPersistenceException ex) {
            if (causedByTheDatabase(ex)) {
                throw new FireAgain("Couldn't fire trigger " + trigger.getKey() + ": " + ex.getMessage(), ex);
            }
            return new TriggerFiredResult(ex);
        } catch (RuntimeException ex) {
            return new TriggerFiredResult(ex);
        }
    }

    private static boolean causedByTheDatabase(Throwable ex) {
        for (Throwable cause = ex; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException) {
                return true;
            }
        }
        return false;
    }

    /**
     * Records a fire complete: on PostgreSQL in the next group of completions ({@link
     * GroupedCompletions}); on MySQL and MariaDB on the worker, as Quartz does, since a run of CI
     * under load saw every job of a MariaDB cluster stall there with grouped completions, a cause
     * not yet found.
     */
    @Override
    public void triggeredJobComplete(
            OperableTrigger trigger, JobDetail jobDetail, CompletedExecutionInstruction instruction) {
        if (Boolean.FALSE.equals(this.repeatableReadByDefault)) {
            this.completions.add(new GroupedCompletions.Completion(trigger, jobDetail, instruction));
            return;
        }
        retryExecuteInNonManagedTXLock(null, (conn) -> {
            completeLocked(conn, trigger, jobDetail, instruction);
            return null;
        });
    }

    /**
     * Does work in a transaction of its own, outside Quartz's lock, tried again after a pause until
     * it commits or the store shuts down, as Quartz records a completion.
     * @param work the work
     * @return what it returns
     * @throws IllegalStateException once the store has shut down
     */
    <T> T untilCommitted(Work<T> work) {
        return retryExecuteInNonManagedTXLock(null, work::in);
    }

    /** Records a fire complete as Quartz does, in a transaction that holds its job's row. */
    void complete(Connection conn, GroupedCompletions.Completion completion) throws JobPersistenceException {
        triggeredJobComplete(conn, completion.trigger(), completion.job(), completion.instruction());
    }

    org.slf4j.Logger log() {
        return getLog();
    }

    /**
     * Records a fire complete as Quartz does, holding the job's row if the job disallows concurrent
     * execution or persists its data (stock Quartz takes its cluster-wide lock for every completion).
     */
    private void completeLocked(
            Connection conn, OperableTrigger trigger, JobDetail job, CompletedExecutionInstruction instruction)
            throws JobPersistenceException {
        if (job.isConcurrentExecutionDisallowed() || job.isPersistJobDataAfterExecution()) {
            lockJobs(conn, List.of(job.getKey()));
        }
        triggeredJobComplete(conn, trigger, job, instruction);
    }

    /**
     * Puts back a trigger this node acquired but does not fire (its fire came too late, it was
     * blocked meanwhile, or its schedule changed), without the cluster-wide lock: Quartz's own
     * release waits for {@code TRIGGER_ACCESS}, and while another session holds it the scheduler's
     * thread would wait with it and fire nothing more. It holds the job's row, if the job disallows
     * concurrent execution, and the trigger's.
     */
    @Override
    public void releaseAcquiredTrigger(OperableTrigger trigger) {
        if (this.ahead.leave(trigger)) {
            return;
        }
        retryExecuteInNonManagedTXLock(null, (conn) -> {
            if (disallowsConcurrency(conn, trigger.getJobKey())) {
                lockJobs(conn, List.of(trigger.getJobKey()));
            }
            lockTriggers(conn, List.of(trigger.getKey()));
            releaseAcquiredTrigger(conn, trigger);
            return null;
        });
    }

    /**
     * Leaves a fire that was fired ahead but that no worker will start: the application takes it
     * over, and Quartz records it complete, which unblocks its job's triggers.
     * @param fire the fire
     * @return whether it was recorded complete
     */
    boolean leave(TriggerFiredBundle fire) {
        claims().left(fire);
        // as Quartz completes a fire that ran, once: a trigger that fires no more goes; should the
        // database not answer, Quartz's recovery of this node completes it
        CompletedExecutionInstruction done = fire.getTrigger().mayFireAgain()
                ? CompletedExecutionInstruction.NOOP
                : CompletedExecutionInstruction.DELETE_TRIGGER;
        try {
            executeInNonManagedTXLock(
                    null,
                    (conn) -> {
                        completeLocked(conn, fire.getTrigger(), fire.getJobDetail(), done);
                        return null;
                    },
                    null);
            return true;
        } catch (JobPersistenceException | RuntimeException ex) {
            getLog().warn("Couldn't record the fire of " + fire.getTrigger().getKey() + " complete: "
                    + ex.getMessage());
            return false;
        }
    }

    /**
     * Stops recording completions in groups, without waiting: the database may not answer, and the
     * store's shutdown ends the retries of the group being written.
     */
    @Override
    void shutDownNow() {
        super.shutDownNow();
        this.completions.abandon();
    }

    /** Shuts the store down; a group still being written then ends, left to the cluster's recovery. */
    @Override
    public void shutdown() {
        super.shutdown();
        this.completions.abandon();
    }

    /**
     * Records the fires that ended complete, and leaves the fires fired ahead that Quartz's thread
     * never took, before the store shuts down.
     */
    @Override
    protected void beforeShutdown() {
        this.completions.stop(COMPLETIONS_AT_STOP_MILLIS);
        this.ahead.leaveAll();
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
