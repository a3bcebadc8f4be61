package io.dsched.internal.engine;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.core.task.VirtualThreadTaskExecutor;

/**
 * The kind of thread a node runs its attempts on. Their number stays {@code dsched.threads} (and
 * {@code dsched.node.group-threads}) either way: virtual threads cost less to block, they do not lift the limit on how many attempts a node
 * runs at once.
 */
public enum WorkerThreads {

    /** Platform threads, as on every JVM. */
    PLATFORM,

    /** Virtual threads, on Java 21 and later. */
    VIRTUAL;

    /**
     * Returns a factory of daemon threads of this kind, named by a prefix and a count from 1.
     * @param namePrefix the prefix, such as {@code dsched-worker-}
     * @return the factory
     * @throws UnsupportedOperationException for virtual threads on a JVM older than Java 21
     */
    public ThreadFactory factory(String namePrefix) {
        if (this == VIRTUAL) {
            ThreadFactory virtual = new VirtualThreadTaskExecutor().getVirtualThreadFactory();
            return named(virtual, namePrefix);
        }
        return named(
                (runnable) -> {
                    Thread thread = new Thread(runnable);
                    thread.setDaemon(true);
                    return thread;
                },
                namePrefix);
    }

    private static ThreadFactory named(ThreadFactory threads, String namePrefix) {
        AtomicInteger count = new AtomicInteger();
        return (runnable) -> {
            Thread thread = threads.newThread(runnable);
            thread.setName(namePrefix + count.incrementAndGet());
            return thread;
        };
    }
}
