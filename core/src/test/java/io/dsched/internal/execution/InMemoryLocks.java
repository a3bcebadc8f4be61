package io.dsched.internal.execution;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;

/** A ShedLock provider in memory, for the guard's unit tests: a lock is held until unlocked or past its lockAtMostFor. */
final class InMemoryLocks implements LockProvider {

    private final Map<String, Instant> heldUntil = new HashMap<>();

    @Override
    public synchronized Optional<SimpleLock> lock(LockConfiguration lock) {
        Instant until = this.heldUntil.get(lock.getName());
        Instant now = lock.getLockAtMostUntil().minus(lock.getLockAtMostFor());
        if (until != null && until.isAfter(now)) {
            return Optional.empty();
        }
        this.heldUntil.put(lock.getName(), lock.getLockAtMostUntil());
        return Optional.of(() -> release(lock.getName()));
    }

    synchronized boolean isHeld(String name) {
        return this.heldUntil.containsKey(name);
    }

    private synchronized void release(String name) {
        this.heldUntil.remove(name);
    }
}
