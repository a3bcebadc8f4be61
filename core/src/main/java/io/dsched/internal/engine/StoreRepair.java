package io.dsched.internal.engine;

import org.quartz.Scheduler;
import org.quartz.SchedulerException;

/** Repairs part of the store at start-up. */
@FunctionalInterface
public interface StoreRepair {

    /**
     * Repairs.
     * @param scheduler the Quartz scheduler
     * @throws SchedulerException if the store cannot be read or written
     */
    void repair(Scheduler scheduler) throws SchedulerException;
}
