package io.dsched.internal.queue;

import java.time.Clock;
import java.util.Collection;

/**
 * Announces due attempts to every node on PostgreSQL: a {@code NOTIFY} on the cluster's channel for
 * the jobs whose attempts fell due, which the database delivers to the nodes' {@link
 * NoticeListener}s. This node's queue is woken at once; the notice goes through a {@link
 * NoticeSender}, on a connection of its own, never in the caller's transaction ({@link
 * AfterCommit} waits for that to commit), so a notice that cannot be sent leaves the caller's work
 * as it was.
 */
public final class PostgresNotices implements DueNotice {

    private final NoticeSender sender;

    private final Runnable wakeQueue;

    /**
     * Creates the notices.
     * @param channel the cluster's channel
     * @param wakeQueue wakes this node's queue
     * @param clock this node's estimate of the database's clock, which stamps the notices
     */
    public PostgresNotices(NoticeChannel channel, Runnable wakeQueue, Clock clock) {
        this.sender = new NoticeSender(channel, clock);
        this.wakeQueue = wakeQueue;
    }

    @Override
    public void due(Collection<String> jobNames) {
        this.wakeQueue.run();
        this.sender.send(jobNames);
    }
}
