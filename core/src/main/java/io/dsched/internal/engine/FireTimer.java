package io.dsched.internal.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Holds the fires a {@link TimedWorkerPool} was handed before their time until it comes, on a
 * platform thread of its own.
 */
final class FireTimer {

    private final ScheduledThreadPoolExecutor timer;

    /** Fires handed over before their time, waiting for it. */
    private final Set<PooledFire> waiting = ConcurrentHashMap.newKeySet();

    FireTimer(ThreadFactory thread) {
        this.timer = new ScheduledThreadPoolExecutor(1, thread);
        this.timer.setRemoveOnCancelPolicy(true);
    }

    /**
     * Hands a fire to {@code due} at its time, at once if it has come.
     * @param fire the fire
     * @param due what starts it
     * @param stopped what takes it if the timer stopped meanwhile
     */
    void whenDue(PooledFire fire, Consumer<PooledFire> due, Consumer<PooledFire> stopped) {
        long early = fire.startAt() - System.currentTimeMillis();
        if (early <= 0) {
            due.accept(fire);
            return;
        }
        this.waiting.add(fire);
        try {
            this.timer.schedule(
                    () -> {
                        if (this.waiting.remove(fire)) {
                            whenDue(fire, due, stopped);
                        }
                    },
                    early,
                    TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException ex) {
            if (this.waiting.remove(fire)) {
                stopped.accept(fire);
            }
        }
    }

    /**
     * Stops the timer, letting a fire it is handing over right now get there first.
     * @return the fires still waiting for their time, which it no longer hands over
     */
    List<PooledFire> stop() {
        this.timer.shutdownNow();
        try {
            this.timer.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        List<PooledFire> left = new ArrayList<>();
        for (PooledFire fire : List.copyOf(this.waiting)) {
            if (this.waiting.remove(fire)) {
                left.add(fire);
            }
        }
        return left;
    }
}
