package io.dsched.internal.store;

import net.javacrumbs.shedlock.core.LockConfiguration;

/**
 * A lock of this table to release in the transaction that records the outcome of its run.
 *
 * @param table the table
 * @param lock the lock, as it was taken
 */
public record LockRelease(LockTable table, LockConfiguration lock) {}
