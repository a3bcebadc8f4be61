package io.dsched.quartz;

import org.quartz.Scheduler;
import org.quartz.SchedulerException;

/**
 * What an application hands the {@link ClusterJobStore} of a scheduler it creates: Quartz
 * instantiates its job store by class name, so the hooks are given to the store that is
 * initialized while {@link #installWhile} runs, on the same thread, and kept by that store alone:
 * one {@code StoreHooks} serves one scheduler.
 *
 * <pre>{@code
 * Scheduler scheduler = StoreHooks.of(standing, claims)
 *         .installWhile(() -> new StdSchedulerFactory(properties).getScheduler());
 * }</pre>
 *
 *
 * <p>The standing is the node's in a membership of the application's, or {@code null} to trust
 * Quartz's own check-ins; the claims are work done in the transaction that fires triggers, or
 * {@code null}, used by the {@link SkipLockedJobStore} only; the backlog is the node's fires due
 * and not started, which the store's grouped completions wait for, and which a thread pool created
 * with the scheduler counts (it finds it through {@link #beingInstalled}).
 */
public final class StoreHooks {

    static final StoreHooks NONE = new StoreHooks(null, null, StartBacklog.NONE);

    private static final ThreadLocal<StoreHooks> CREATING = new ThreadLocal<>();

    private final NodeStanding standing;

    private final FireClaims claims;

    private final StartBacklog backlog;

    /** The store that took these hooks, once Quartz has initialized it. */
    private volatile ClusterJobStore store;

    private StoreHooks(NodeStanding standing, FireClaims claims, StartBacklog backlog) {
        this.standing = standing;
        this.claims = claims;
        this.backlog = backlog;
    }

    /**
     * Returns hooks with no backlog: completions never wait for starts.
     * @param standing the node's standing, or {@code null}
     * @param claims what claims fires, or {@code null}
     * @return the hooks
     */
    public static StoreHooks of(NodeStanding standing, FireClaims claims) {
        return of(standing, claims, StartBacklog.NONE);
    }

    /**
     * Returns hooks.
     * @param standing the node's standing, or {@code null}
     * @param claims what claims fires, or {@code null}
     * @param backlog the node's fires due and not started
     * @return the hooks
     */
    public static StoreHooks of(NodeStanding standing, FireClaims claims, StartBacklog backlog) {
        return new StoreHooks(standing, claims, backlog);
    }

    /**
     * Returns the hooks of the scheduler being created on this thread by {@link #installWhile}, for
     * a component Quartz creates by name with it, such as its thread pool; none outside.
     * @return the hooks, or hooks with neither standing, claims nor backlog
     */
    public static StoreHooks beingInstalled() {
        StoreHooks hooks = CREATING.get();
        return (hooks != null) ? hooks : NONE;
    }

    /**
     * Returns the node's standing.
     * @return the standing, or {@code null}
     */
    public NodeStanding standing() {
        return this.standing;
    }

    /**
     * Returns what claims fires in the transaction that fires them.
     * @return the claims, or {@code null}
     */
    public FireClaims claims() {
        return this.claims;
    }

    /**
     * Returns the node's fires due and not started.
     * @return the backlog, {@link StartBacklog#NONE} if none was given
     */
    public StartBacklog backlog() {
        return this.backlog;
    }

    /**
     * Shuts the store of the scheduler these hooks created down now, as Quartz's own shutdown does
     * last, once its threads have ended, but without putting back the triggers it acquired (a
     * write): a thread that retries a write until the database answers (recording a fire complete,
     * putting an acquired trigger back) gives up at its next try. For a stop that cannot wait for
     * Quartz's shutdown to end; the writes given up are left for the recovery of this node by the
     * others. Does nothing before the store is initialized.
     */
    public void shutDownStore() {
        ClusterJobStore taken = this.store;
        if (taken != null) {
            taken.shutDownNow();
        }
    }

    /**
     * Creates a scheduler whose store takes these hooks.
     * @param creation creates the scheduler, on this thread
     * @return the scheduler
     * @throws SchedulerException if Quartz cannot create it
     */
    public Scheduler installWhile(Creation creation) throws SchedulerException {
        StoreHooks outer = CREATING.get();
        CREATING.set(this);
        try {
            return creation.create();
        } finally {
            if (outer == null) {
                CREATING.remove();
            } else {
                CREATING.set(outer);
            }
        }
    }

    /** The hooks of the store being initialized on this thread, or none; the store takes them. */
    static StoreHooks takenBy(ClusterJobStore store) {
        StoreHooks hooks = CREATING.get();
        if (hooks == null) {
            return NONE;
        }
        if (hooks.store != null && hooks.store != store) {
            throw new IllegalStateException(
                    "These store hooks were taken by a store already: one scheduler a StoreHooks");
        }
        hooks.store = store;
        return hooks;
    }

    /** Creates a scheduler, such as with {@code new StdSchedulerFactory(properties).getScheduler()}. */
    @FunctionalInterface
    public interface Creation {

        /**
         * Creates the scheduler.
         * @return the scheduler
         * @throws SchedulerException if Quartz cannot create it
         */
        Scheduler create() throws SchedulerException;
    }
}
