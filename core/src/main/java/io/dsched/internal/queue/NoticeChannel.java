package io.dsched.internal.queue;

import io.dsched.internal.store.ClusterTables;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.Collection;
import javax.sql.DataSource;

/**
 * The channel a cluster's notices of due attempts go on, {@code dsched_due} for the default
 * cluster, and how to announce on it: on a connection of its own, committed at once, never in a
 * transaction of the caller's, so that a notice can neither fail nor hold up the caller's work.
 */
public final class NoticeChannel {

    private final DataSource dataSource;

    private final String notifySql;

    private final String name;

    private NoticeChannel(DataSource dataSource, String notifySql, String name) {
        this.dataSource = dataSource;
        this.notifySql = notifySql;
        this.name = name;
    }

    /**
     * Returns a cluster's channel.
     * @param dataSource the connections announcements are made on
     * @param notifySql the dialect's statement that announces, {@code SqlDialect.notifySql}
     * @param tables the cluster's tables, which name the channel
     * @return the channel
     */
    public static NoticeChannel of(DataSource dataSource, String notifySql, ClusterTables tables) {
        return new NoticeChannel(dataSource, notifySql, tables.sql("dsched_due"));
    }

    /** The channel's name. */
    String name() {
        return this.name;
    }

    /** The pool listeners take their connection from. */
    DataSource dataSource() {
        return this.dataSource;
    }

    /**
     * Announces on a channel, in one statement and one transaction of its own.
     * @param channel this channel's name, or a probe's channel
     * @param payloads what the listeners hear: notices as {@link NoticePayload#payload} writes them, or a probe's token
     * @throws SQLException if it cannot
     */
    void announce(String channel, Collection<String> payloads) throws SQLException {
        try (Connection connection = this.dataSource.getConnection();
                PreparedStatement statement = connection.prepareStatement(this.notifySql)) {
            Array array = connection.createArrayOf("text", payloads.toArray());
            statement.setString(1, channel);
            statement.setArray(2, array);
            statement.execute();
            if (!connection.getAutoCommit()) {
                connection.commit();
            }
        }
    }
}
