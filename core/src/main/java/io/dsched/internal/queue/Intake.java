package io.dsched.internal.queue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How much the queue claims: no more than this node has free workers for, plus, while its attempts
 * are short (shorter on average than the poll interval), as many again held ready, so that no worker
 * waits for the next claim. Long attempts are never claimed ahead: they spread over the nodes. While
 * there is a backlog, finishing attempts wake the poller once a quarter of the workers is free, so
 * that claims come in batches rather than one by one.
 */
final class Intake {

    private final int threads;

    private final long pollMillis;

    private final int wakeThreshold;

    /** Attempts claimed and not yet finished on this node: running, or held ready. */
    private final AtomicInteger outstanding = new AtomicInteger();

    /** Moving average of how long this node's attempts take, in milliseconds. */
    private volatile double averageMillis = Double.MAX_VALUE;

    /** Whether the last claim found as many due attempts as there were free places. */
    private volatile boolean backlog;

    Intake(int threads, Duration pollInterval) {
        this.threads = threads;
        this.pollMillis = pollInterval.toMillis();
        this.wakeThreshold = Math.max(1, threads / 4);
    }

    /** How many attempts this node may have claimed at once. */
    int capacity() {
        return (this.averageMillis < this.pollMillis) ? 2 * this.threads : this.threads;
    }

    /** How many more attempts this node may claim now. */
    int free() {
        return capacity() - this.outstanding.get();
    }

    /** Records a claim of {@code got} attempts when {@code asked} were free; each is then outstanding. */
    void claimed(int asked, int got) {
        this.backlog = got == asked;
        this.outstanding.addAndGet(got);
    }

    /** Records that {@code count} attempts claimed were never run here: they are outstanding no more. */
    void dropped(int count) {
        this.outstanding.addAndGet(-count);
    }

    /**
     * Whether the poller waits for its next poll after a claim: unless the claim filled every free
     * place, when more may be due at once.
     */
    boolean waitsAfter(int free, int claimed) {
        return claimed == 0 || claimed < free;
    }

    /**
     * Records that an attempt ended after {@code millis}.
     * @return whether to wake the poller: there is a backlog and enough places are free
     */
    boolean finished(double millis) {
        double average = this.averageMillis;
        this.averageMillis = (average == Double.MAX_VALUE) ? millis : average * 0.9 + millis * 0.1;
        int outstanding = this.outstanding.decrementAndGet();
        return this.backlog && capacity() - outstanding >= this.wakeThreshold;
    }
}
