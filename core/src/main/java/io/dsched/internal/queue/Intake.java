package io.dsched.internal.queue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * How much the queue claims: no more than this node has free workers for, plus, while its attempts
 * are short (shorter on average than the poll interval), some held ready, so that no worker waits
 * for the next claim: as many as its workers start within {@value #READY_FOR_MILLIS} ms at their
 * average duration, at least as many as it has workers and at most {@value #MOST_READY_PER_WORKER}
 * times as many. Long attempts are never claimed ahead: they spread over the nodes. While there is
 * a backlog, finishing attempts wake the poller once a quarter of the workers, or of the attempts
 * held ready if there are more, is free; and while attempts are held ready the poller claims only
 * then, whatever else wakes it, so that claims come in batches rather than one by one: each claim
 * is a transaction, and with attempts of a few milliseconds, claims of one or two were what bounded
 * a node. A claim under way holds the places it asks for, so that what finishes meanwhile does not
 * wake the poller for places the claim is about to fill.
 */
final class Intake {

    /**
     * How long the attempts held ready last the workers at their average duration, unless one per
     * worker lasts longer.
     */
    static final long READY_FOR_MILLIS = 100;

    /** The most attempts held ready, per worker. */
    static final int MOST_READY_PER_WORKER = 4;

    private final int threads;

    private final long pollMillis;

    /** Attempts claimed and not yet finished on this node: running, or held ready. */
    private final AtomicInteger outstanding = new AtomicInteger();

    /** Moving average of how long this node's attempts take, in milliseconds. */
    private volatile double averageMillis = Double.MAX_VALUE;

    /** Whether the last claim found as many due attempts as there were free places. */
    private volatile boolean backlog;

    Intake(int threads, Duration pollInterval) {
        this.threads = threads;
        this.pollMillis = pollInterval.toMillis();
    }

    /** How many attempts this node may have claimed at once. */
    int capacity() {
        return this.threads + ready();
    }

    /** How many attempts this node holds ready beside its workers: none while they are long. */
    private int ready() {
        double average = this.averageMillis;
        if (average >= this.pollMillis) {
            return 0;
        }
        double startedInTime = this.threads * READY_FOR_MILLIS / Math.max(average, 0.001);
        return (int) Math.min(MOST_READY_PER_WORKER * this.threads, Math.max(this.threads, startedInTime));
    }

    /** How many places must be free before a finishing attempt wakes the poller. */
    private int wakeThreshold() {
        return Math.max(1, Math.max(this.threads, ready()) / 4);
    }

    /** How many more attempts this node may claim now. */
    int free() {
        return capacity() - this.outstanding.get();
    }

    /** Records that a claim of up to {@code asked} attempts is under way: it holds their places. */
    void claiming(int asked) {
        this.outstanding.addAndGet(asked);
    }

    /**
     * Records the end of a claim of {@code asked} attempts that got {@code got}; each is then
     * outstanding, and the places it did not fill are free again. A claim that failed got none.
     */
    void claimed(int asked, int got) {
        this.backlog = got == asked;
        this.outstanding.addAndGet(got - asked);
    }

    /**
     * Whether the poller holds its claims until enough places are free: while a backlog is held
     * ready. Long attempts hold none, and a free worker claims the next at once.
     */
    boolean holding() {
        return this.backlog && ready() > 0 && free() < wakeThreshold();
    }

    /** Records that {@code count} attempts claimed were never run here: they are outstanding no more. */
    void dropped(int count) {
        this.outstanding.addAndGet(-count);
    }

    /**
     * Whether the poller waits after a claim: for its next poll unless the claim filled every free
     * place, when more may be due at once; and, while it {@linkplain #holding() holds}, until enough
     * places are free again (a finishing attempt wakes it), rather than claiming the one or two that
     * have come free meanwhile.
     */
    boolean waitsAfter(int free, int claimed) {
        return claimed == 0 || claimed < free || holding();
    }

    /**
     * Records that an attempt ended after {@code millis}.
     * @return whether to wake the poller: there is a backlog and enough places are free
     */
    boolean finished(double millis) {
        double average = this.averageMillis;
        this.averageMillis = (average == Double.MAX_VALUE) ? millis : average * 0.9 + millis * 0.1;
        int outstanding = this.outstanding.decrementAndGet();
        return this.backlog && capacity() - outstanding >= wakeThreshold();
    }
}
