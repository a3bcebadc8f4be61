package io.dsched.quartz;

import org.quartz.Scheduler;
import org.quartz.SchedulerException;

/**
 * What an application hands the {@link ClusterJobStore} of a scheduler it creates: Quartz
 * instantiates its job store by class name, so the hooks are given to the store that is
 * initialized while {@link #installWhile} runs, on the same thread, and kept by that store alone.
 *
 * <pre>{@code
 * Scheduler scheduler = StoreHooks.of(standing, claims)
 *         .installWhile(() -> new StdSchedulerFactory(properties).getScheduler());
 * }</pre>
 *
 * @param standing the node's standing in a membership of the application's, or {@code null} to
 *     trust Quartz's own check-ins
 * @param claims work done in the transaction that fires triggers, or {@code null}; used by the
 *     {@link SkipLockedJobStore} only
 */
public record StoreHooks(NodeStanding standing, FireClaims claims) {

    static final StoreHooks NONE = new StoreHooks(null, null);

    private static final ThreadLocal<StoreHooks> CREATING = new ThreadLocal<>();

    /**
     * Returns hooks.
     * @param standing the node's standing, or {@code null}
     * @param claims what claims fires, or {@code null}
     * @return the hooks
     */
    public static StoreHooks of(NodeStanding standing, FireClaims claims) {
        return new StoreHooks(standing, claims);
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

    /** The hooks of the store being initialized on this thread, or none. */
    static StoreHooks current() {
        StoreHooks hooks = CREATING.get();
        return (hooks != null) ? hooks : NONE;
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
