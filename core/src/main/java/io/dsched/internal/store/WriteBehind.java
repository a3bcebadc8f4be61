package io.dsched.internal.store;

import io.dsched.quartz.StartBacklog;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes what is handed over on a thread of its own, in groups: what is handed over while a group
 * is being written is written together in the next one, up to a maximum. A group waits for the
 * node's fires that are due and not started ({@link StartBacklog}), for a bounded time, and takes
 * what came meanwhile. The hand-over is bounded,
 * so that callers wait rather than run ahead of a writer that cannot keep up. The writing itself
 * is the {@link Writer}'s; this class decides only the grouping and tells each caller its answer.
 *
 * @param <T> what is written
 */
final class WriteBehind<T> implements AutoCloseable {

    private static final Logger logger = LoggerFactory.getLogger(WriteBehind.class);

    private final int maxBatch;

    private final Writer<T> writer;

    private final StartBacklog backlog;

    private final LinkedBlockingQueue<Entry<T>> queue;

    private final Thread thread;

    private volatile boolean open = true;

    /** How many items were handed over. */
    private final AtomicLong handedOver = new AtomicLong();

    /** How many items the writer has taken into its groups; the writer's own. */
    private volatile long taken;

    /**
     * Every item handed over before this count was asked for without waiting ({@link #hurry}):
     * groups go at once until the writer has taken them all.
     */
    private final AtomicLong hurriedUpTo = new AtomicLong();

    WriteBehind(String threadName, int maxBatch, int capacity, StartBacklog backlog, Writer<T> writer) {
        this.maxBatch = maxBatch;
        this.writer = writer;
        this.backlog = backlog;
        this.queue = new LinkedBlockingQueue<>(capacity);
        this.thread = new Thread(this::writeWhileOpen, threadName);
        this.thread.setDaemon(true);
        this.thread.start();
    }

    /**
     * Hands an item over, waiting while the hand-over is full.
     * @return completes with what the writer answered for the item, or exceptionally with what its
     *     group failed with
     * @throws IllegalStateException once closed
     */
    CompletableFuture<Boolean> submit(T item) {
        if (!this.open) {
            throw new IllegalStateException("dsched's outcome writer is closed");
        }
        Entry<T> entry = new Entry<>(item, new CompletableFuture<>());
        // counted before it is in the queue: a hurry then covers it, and at worst a group goes early
        this.handedOver.incrementAndGet();
        try {
            this.queue.put(entry);
        } catch (InterruptedException ex) {
            this.handedOver.decrementAndGet();
            Thread.currentThread().interrupt();
            entry.written().completeExceptionally(ex);
        }
        return entry.written();
    }

    /**
     * Asks for everything handed over so far to be written without waiting for the node's due
     * fires to start: for a caller about to block for a write it handed over.
     */
    void hurry() {
        this.hurriedUpTo.accumulateAndGet(this.handedOver.get(), Math::max);
    }

    /**
     * Whether to write a group without waiting for the node's due fires to start: closing, asked
     * to hurry for an item not yet taken, or more is handed over than two groups take, which the
     * callers would otherwise soon wait for.
     */
    private boolean goOn() {
        return !this.open || this.taken < this.hurriedUpTo.get() || this.queue.size() >= 2 * this.maxBatch;
    }

    private void writeWhileOpen() {
        List<Entry<T>> batch = new ArrayList<>(this.maxBatch);
        while (this.open || !this.queue.isEmpty()) {
            try {
                Entry<T> first = this.queue.poll(200, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                batch.add(first);
                // the fires that fell due with the one that handed this over start first
                this.backlog.awaitStarts(this::goOn);
                this.queue.drainTo(batch, this.maxBatch - 1);
                this.taken += batch.size();
                write(batch);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                if (!batch.isEmpty()) {
                    // taken while waiting for the starts: written all the same
                    this.taken += batch.size();
                    write(batch);
                }
                return;
            } finally {
                batch.clear();
            }
        }
    }

    private void write(List<Entry<T>> batch) {
        try {
            boolean[] written =
                    this.writer.write(batch.stream().map(Entry::item).toList());
            for (int i = 0; i < batch.size(); i++) {
                batch.get(i).written().complete(written[i]);
            }
        } catch (RuntimeException ex) {
            logger.warn("Could not write {} outcome(s): {}", batch.size(), ex.getMessage());
            batch.forEach((entry) -> entry.written().completeExceptionally(ex));
        }
    }

    /** Writes what was handed over, waiting up to half a minute, then stops the writer. */
    @Override
    public void close() {
        this.open = false;
        try {
            this.thread.join(TimeUnit.SECONDS.toMillis(30));
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Writes one group.
     * @param <T> what is written
     */
    @FunctionalInterface
    interface Writer<T> {

        /**
         * Writes a group, all or nothing.
         * @return for each item, whether it was written
         */
        boolean[] write(List<T> batch);
    }

    private record Entry<T>(T item, CompletableFuture<Boolean> written) {}
}
