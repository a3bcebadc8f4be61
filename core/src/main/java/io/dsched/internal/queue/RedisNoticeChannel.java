package io.dsched.internal.queue;

import io.dsched.internal.store.ClusterTables;
import java.time.Clock;
import java.util.List;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The channel on Redis where the nodes of a cluster announce attempts due now, for a database
 * without notices of its own (MySQL, MariaDB, H2), or a PostgreSQL behind a pooler in transaction
 * mode: a message per job on Redis's pub/sub, which reaches every node subscribed at that moment
 * and no other. Only this class and {@link RedisNoticeListener} need Spring Data Redis, loaded only
 * when the application chooses Redis for its notices.
 */
public final class RedisNoticeChannel {

    private final RedisConnectionFactory connections;

    private final StringRedisTemplate redis;

    private final String name;

    private RedisNoticeChannel(RedisConnectionFactory connections, String name) {
        this.connections = connections;
        this.redis = new StringRedisTemplate(connections);
        this.name = name;
    }

    /**
     * Returns a cluster's channel on Redis.
     * @param connections the application's connections to Redis
     * @param tables the cluster's tables, which name the channel as on PostgreSQL
     * @return the channel
     */
    public static RedisNoticeChannel of(RedisConnectionFactory connections, ClusterTables tables) {
        return new RedisNoticeChannel(connections, tables.sql("dsched_due"));
    }

    /**
     * Returns the notices that go through this channel.
     * @param wakeQueue wakes this node's queue
     * @param clock this node's estimate of the database's clock, which stamps the notices
     * @return the notices
     */
    public DueNotice notices(Runnable wakeQueue, Clock clock) {
        return new ClusterNotices(this::announce, wakeQueue, clock);
    }

    /** The channel's name. */
    String name() {
        return this.name;
    }

    /** The connections a listener subscribes with. */
    RedisConnectionFactory connections() {
        return this.connections;
    }

    /** Checks that Redis answers, on a connection of the pool's, before a listener subscribes. */
    void ping() {
        try (RedisConnection connection = this.connections.getConnection()) {
            connection.ping();
        }
    }

    private void announce(List<String> payloads) {
        for (String payload : payloads) {
            this.redis.convertAndSend(this.name, payload);
        }
    }
}
