package io.dsched.internal.store;

/**
 * A lock held by a database session until it is released.
 *
 * @param acquireSql the statement that waits for the lock, with one parameter, the key
 * @param releaseSql the statement that releases it, with the key too
 * @param key the lock's key
 */
public record SessionLock(String acquireSql, String releaseSql, Object key) {}
