package io.dsched.internal.queue;

import io.dsched.internal.store.ClusterTables;
import javax.sql.DataSource;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The channel a cluster's notices of due attempts go on, {@code dsched_due} for the default
 * cluster, and how to announce on it.
 *
 * @param jdbc the connections announcements are made on, joining the caller's transaction
 * @param notifySql the dialect's statement that announces, {@code SqlDialect.notifySql}
 * @param name the channel's name
 */
public record NoticeChannel(JdbcTemplate jdbc, String notifySql, String name) {

    /**
     * Returns a cluster's channel.
     * @param dataSource the connections announcements are made on
     * @param notifySql the dialect's statement that announces
     * @param tables the cluster's tables, which name the channel
     * @return the channel
     */
    public static NoticeChannel of(DataSource dataSource, String notifySql, ClusterTables tables) {
        return new NoticeChannel(new JdbcTemplate(dataSource), notifySql, tables.sql("dsched_due"));
    }

    /**
     * Announces on the channel, when the transaction this runs in commits.
     * @param payload what the listeners hear: a job's name, or a probe
     */
    void announce(String payload) {
        this.jdbc.query(this.notifySql, (resultSet) -> null, this.name, payload);
    }
}
