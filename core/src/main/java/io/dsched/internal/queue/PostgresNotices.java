package io.dsched.internal.queue;

import java.util.Collection;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;

/**
 * Announces due attempts to every node on PostgreSQL: a {@code NOTIFY} on the cluster's channel for
 * each job, which the database delivers to the nodes' {@link NoticeListener}s when the
 * transaction that stored the attempts commits, once per job however many attempts the
 * transaction stored (PostgreSQL folds equal notifications of one transaction into one). This
 * node's own queue is woken at once as well, without waiting for the notice to come back.
 */
public final class PostgresNotices implements DueNotice {

    private static final Logger logger = LoggerFactory.getLogger(PostgresNotices.class);

    private final NoticeChannel channel;

    private final Runnable wakeQueue;

    /**
     * Creates the notices.
     * @param channel the cluster's channel, on the connections the attempts are stored with, so
     *     that a notice joins their transaction
     * @param wakeQueue wakes this node's queue
     */
    public PostgresNotices(NoticeChannel channel, Runnable wakeQueue) {
        this.channel = channel;
        this.wakeQueue = wakeQueue;
    }

    @Override
    public void due(Collection<String> jobNames) {
        for (String name : new TreeSet<>(jobNames)) {
            try {
                this.channel.announce(name);
            } catch (DataAccessException ex) {
                // the attempts are stored: the nodes find them at their next poll
                logger.warn("Could not announce due attempts of '{}': {}", name, ex.getMessage());
            }
        }
        this.wakeQueue.run();
    }
}
