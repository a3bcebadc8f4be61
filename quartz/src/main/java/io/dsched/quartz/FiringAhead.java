package io.dsched.quartz;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.quartz.JobPersistenceException;
import org.quartz.spi.OperableTrigger;
import org.quartz.spi.TriggerFiredBundle;
import org.quartz.spi.TriggerFiredResult;

/**
 * Fires triggers ahead of their time, so that at the due instant a worker only starts the job.
 *
 * <p>Quartz's scheduler thread fires a batch of triggers at the time of its first, in a transaction
 * that records each fire, computes its next time and here also claims it: a burst of fires due at
 * once queues behind that work, batch after batch. Firing ahead moves the work before the burst:
 * each look for due triggers acquires, fires and claims, in transactions of at most {@link #CHUNK}
 * triggers, those due by the look's horizon (Quartz's idle wait plus the lead), up to the node's
 * {@linkplain FireShares share}, and hands them to Quartz's thread as due at once. The fires wait in
 * the application's thread pool for their time.
 *
 * <p>What it keeps of Quartz's semantics: a trigger is fired once, by the node that acquired it; a
 * job that disallows concurrent execution has its triggers blocked from the fire on, so at most
 * one fire of it is ahead at a time. What changes: a fire recorded ahead runs even if its trigger
 * is paused or unscheduled in the lead before its time, as a fire already running would. A fire
 * that Quartz's thread puts back (a change of schedule while it waits, a shutdown) has been fired
 * and claimed: it is {@linkplain FireClaims#left left} to the application, which runs it elsewhere.
 */
final class FiringAhead {

    /** The most triggers acquired, or fired, in one transaction. */
    static final int CHUNK = 50;

    /**
     * How soon a node that acquired less than its share looks again: it passed over triggers
     * another node was acquiring, whose leftovers are its share, and Quartz's idle wait (as long
     * as the lead, by default) would bring it back when they are due.
     */
    static final long LOOK_AGAIN_MILLIS = 100;

    /**
     * How many times in a row it looks again so soon: for as long as Quartz's default idle wait,
     * while another node's transaction holds the rows; not for ever, should triggers it counted
     * never be acquired.
     */
    static final int LOOKS_AGAIN = 10;

    private final AtomicInteger looksAgain = new AtomicInteger();

    /** Its thread ends when idle, so that none is left should the store stop without leaving. */
    private final ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, (runnable) -> {
        Thread thread = new Thread(runnable, "dsched-quartz-look-again");
        thread.setDaemon(true);
        return thread;
    });

    FiringAhead(SkipLockedJobStore store) {
        this.store = store;
        this.timer.setKeepAliveTime(1, TimeUnit.SECONDS);
        this.timer.allowCoreThreadTimeOut(true);
    }

    private final SkipLockedJobStore store;

    /** The fires made ahead that Quartz's thread has not taken yet, by fire instance id. */
    private final Map<String, TriggerFiredResult> fired = new ConcurrentHashMap<>();

    private volatile long lead;

    private volatile FireShares shares;

    long lead() {
        return this.lead;
    }

    void lead(long millis) {
        this.lead = millis;
    }

    /**
     * Acquires and fires the triggers due by the horizon, this node's share of them.
     * @param noLaterThan the horizon Quartz asks for (now plus its idle wait)
     * @param maxCount the most the thread pool has room for
     * @return the triggers fired, each due at once for Quartz's thread
     * @throws JobPersistenceException if nothing could be acquired and fired
     */
    List<OperableTrigger> fire(long noLaterThan, int maxCount) throws JobPersistenceException {
        long now = System.currentTimeMillis();
        long horizon = noLaterThan + this.lead;
        int share = share(now, horizon, maxCount);
        List<OperableTrigger> handed = new ArrayList<>();
        try {
            while (handed.size() < share) {
                int chunk = Math.min(CHUNK, share - handed.size());
                List<OperableTrigger> acquired = this.store.acquire(horizon, chunk, this.lead);
                if (acquired.isEmpty() || !fireChunk(acquired, now, handed) || acquired.size() < chunk) {
                    break;
                }
            }
        } catch (JobPersistenceException | RuntimeException ex) {
            // the fires of the chunks before are committed and claimed: Quartz's thread must have them
            if (handed.isEmpty()) {
                throw ex;
            }
        }
        lookAgainIfShort(handed.size(), share);
        return handed;
    }

    private void lookAgainIfShort(int handed, int share) {
        if (handed >= share) {
            this.looksAgain.set(0);
        } else if (this.looksAgain.incrementAndGet() <= LOOKS_AGAIN) {
            try {
                this.timer.schedule(this.store::lookAgain, LOOK_AGAIN_MILLIS, TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException stopped) {
                // shut down
            }
        }
    }

    /**
     * Fires acquired triggers in one transaction and adds them to those handed to Quartz's thread.
     * @return {@code false} if the transaction failed, its triggers put back
     */
    private boolean fireChunk(List<OperableTrigger> acquired, long now, List<OperableTrigger> handed)
            throws JobPersistenceException {
        // Quartz moves a trigger it fires on to its next time: the acquired ones stay as they were
        List<OperableTrigger> firing = new ArrayList<>(acquired.size());
        for (OperableTrigger trigger : acquired) {
            firing.add((OperableTrigger) trigger.clone());
        }
        List<TriggerFiredResult> results;
        try {
            results = this.store.fireNow(firing);
        } catch (JobPersistenceException ex) {
            for (OperableTrigger trigger : acquired) {
                this.store.releaseAcquiredTrigger(trigger);
            }
            if (handed.isEmpty()) {
                throw ex;
            }
            return false;
        }
        for (int i = 0; i < acquired.size(); i++) {
            OperableTrigger trigger = acquired.get(i);
            this.fired.put(trigger.getFireInstanceId(), results.get(i));
            // due at once: Quartz's thread takes the fires and looks ahead again, not waiting
            OperableTrigger dueNow = (OperableTrigger) trigger.clone();
            dueNow.setNextFireTime(new Date(now));
            handed.add(dueNow);
        }
        return true;
    }

    /** This node's share of the fires due by the horizon ({@link FireShares}). */
    private int share(long now, long horizon, int maxCount) throws JobPersistenceException {
        FireShares counted = shares();
        String node = this.store.getInstanceId();
        return this.store.inTransaction((conn) -> {
            try {
                return counted.of(
                        conn, node, now, now - this.store.getMisfireThreshold(), now + this.lead, horizon, maxCount);
            } catch (SQLException ex) {
                throw new JobPersistenceException("Couldn't count the fires due ahead: " + ex.getMessage(), ex);
            }
        });
    }

    private FireShares shares() {
        FireShares known = this.shares;
        if (known == null) {
            known = new FireShares(this.store.getTablePrefix(), this.store.getInstanceName());
            this.shares = known;
        }
        return known;
    }

    /**
     * Hands out the fires of triggers fired ahead, and fires the others now.
     * @param triggers the triggers Quartz's thread fires
     * @return the fire of each, in order
     * @throws JobPersistenceException if the others' transaction fails
     */
    List<TriggerFiredResult> handOut(List<OperableTrigger> triggers) throws JobPersistenceException {
        List<TriggerFiredResult> results = new ArrayList<>(triggers.size());
        List<OperableTrigger> now = new ArrayList<>();
        for (OperableTrigger trigger : triggers) {
            // taken out at once: a fire is handed out or left, never both
            TriggerFiredResult ahead = this.fired.remove(trigger.getFireInstanceId());
            results.add(ahead);
            if (ahead == null) {
                now.add(trigger);
            }
        }
        if (now.isEmpty()) {
            return results;
        }
        List<TriggerFiredResult> firedNow;
        try {
            firedNow = this.store.fireNow(now);
        } catch (JobPersistenceException | RuntimeException ex) {
            // Quartz's thread puts every trigger back: those fired ahead are left here
            for (TriggerFiredResult ahead : results) {
                if (ahead != null && ahead.getTriggerFiredBundle() != null) {
                    this.store.leave(ahead.getTriggerFiredBundle());
                }
            }
            throw ex;
        }
        int next = 0;
        for (int i = 0; i < results.size(); i++) {
            if (results.get(i) == null) {
                results.set(i, firedNow.get(next++));
            }
        }
        return results;
    }

    /**
     * Leaves the fire of a trigger fired ahead that Quartz's thread puts back.
     * @param trigger the trigger
     * @return {@code false} if it was not fired ahead, or its fire found it no longer acquired:
     *     it is put back as Quartz does
     */
    boolean leave(OperableTrigger trigger) {
        TriggerFiredResult ahead = this.fired.remove(trigger.getFireInstanceId());
        TriggerFiredBundle fire = (ahead != null) ? ahead.getTriggerFiredBundle() : null;
        if (fire == null) {
            return false;
        }
        this.store.leave(fire);
        return true;
    }

    /**
     * Leaves every fire made ahead that Quartz's thread has not taken. Stops at the first that
     * cannot be left (the database does not answer): the others' claims are taken over with this
     * node's running attempts once the others count it dead.
     */
    void leaveAll() {
        this.timer.shutdownNow();
        for (String id : List.copyOf(this.fired.keySet())) {
            TriggerFiredResult ahead = this.fired.remove(id);
            if (ahead != null
                    && ahead.getTriggerFiredBundle() != null
                    && !this.store.leave(ahead.getTriggerFiredBundle())) {
                this.fired.clear();
                return;
            }
        }
    }
}
