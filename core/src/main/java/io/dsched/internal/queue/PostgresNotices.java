package io.dsched.internal.queue;

import java.sql.SQLException;
import java.util.Collection;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Announces due attempts to every node on PostgreSQL: one {@code NOTIFY} on the cluster's channel
 * for the jobs whose attempts fell due, which the database delivers to the nodes' {@link
 * NoticeListener}s, this node's own included. It goes on a connection of its own, never in the
 * caller's transaction ({@link AfterCommit} waits for that to commit), so a notice that cannot be
 * sent leaves the caller's work as it was: the nodes then find the attempts at their next poll.
 * This node's own queue is woken as well.
 */
public final class PostgresNotices implements DueNotice {

    private static final Logger logger = LoggerFactory.getLogger(PostgresNotices.class);

    private final NoticeChannel channel;

    private final Runnable wakeQueue;

    /**
     * Creates the notices.
     * @param channel the cluster's channel
     * @param wakeQueue wakes this node's queue
     */
    public PostgresNotices(NoticeChannel channel, Runnable wakeQueue) {
        this.channel = channel;
        this.wakeQueue = wakeQueue;
    }

    @Override
    public void due(Collection<String> jobNames) {
        try {
            this.channel.announce(this.channel.name(), new TreeSet<>(jobNames));
        } catch (SQLException | RuntimeException ex) {
            logger.warn("Could not announce due attempts of {}: {}", jobNames, ex.getMessage());
        }
        this.wakeQueue.run();
    }
}
