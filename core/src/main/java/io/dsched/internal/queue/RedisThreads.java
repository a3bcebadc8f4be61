package io.dsched.internal.queue;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;

/** The threads of one start: subscribing and trying again, the subscription, reading messages. */
final class RedisThreads {

    final ScheduledExecutorService subscriber =
            Executors.newSingleThreadScheduledExecutor(daemon("dsched-redis-subscriber"));

    final ExecutorService subscription = Executors.newCachedThreadPool(daemon("dsched-redis-subscription"));

    final ExecutorService reader = Executors.newSingleThreadExecutor(daemon("dsched-redis-notices"));

    void shutdown() {
        this.subscriber.shutdownNow();
        this.subscription.shutdownNow();
        this.reader.shutdownNow();
    }

    private static ThreadFactory daemon(String name) {
        return (runnable) -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }
}
