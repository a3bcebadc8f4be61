package io.dsched.internal.queue;

import java.time.Clock;
import java.util.Collection;

/**
 * Announces due attempts to every node: this node's queue is woken at once, and a notice naming
 * the jobs goes to the others, on PostgreSQL as a {@code NOTIFY} on the cluster's channel, or
 * through Redis's pub/sub where the application has Redis. The notice goes through a {@link
 * NoticeSender}, on a thread and a connection of its own, never in the caller's transaction
 * ({@link AfterCommit} waits for that to commit), so a notice that cannot be sent leaves the
 * caller's work as it was.
 */
public final class ClusterNotices implements DueNotice {

    private final NoticeSender sender;

    private final Runnable wakeQueue;

    ClusterNotices(Announcer announcer, Runnable wakeQueue, Clock clock) {
        this.sender = new NoticeSender(announcer, clock);
        this.wakeQueue = wakeQueue;
    }

    /**
     * Notices by PostgreSQL's {@code NOTIFY}.
     * @param channel the cluster's channel
     * @param wakeQueue wakes this node's queue
     * @param clock this node's estimate of the database's clock, which stamps the notices
     * @return the notices
     */
    public static ClusterNotices postgres(NoticeChannel channel, Runnable wakeQueue, Clock clock) {
        return new ClusterNotices((payloads) -> channel.announce(channel.name(), payloads), wakeQueue, clock);
    }

    @Override
    public void due(Collection<String> jobNames) {
        this.wakeQueue.run();
        this.sender.send(jobNames);
    }
}
