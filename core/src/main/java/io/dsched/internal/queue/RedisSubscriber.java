package io.dsched.internal.queue;

import java.nio.charset.StandardCharsets;
import org.springframework.data.redis.connection.Message;
import org.springframework.data.redis.connection.MessageListener;
import org.springframework.data.redis.connection.SubscriptionListener;

/**
 * Hears the notices on Redis, and when the subscription is made (at first, and each time the Redis
 * client makes it again after losing its connection): then the queue looks for what fell due while
 * this node was not subscribed.
 */
final class RedisSubscriber implements MessageListener, SubscriptionListener {

    private final NoticeWaker waker;

    private final Runnable subscribed;

    RedisSubscriber(NoticeWaker waker, Runnable subscribed) {
        this.waker = waker;
        this.subscribed = subscribed;
    }

    @Override
    public void onMessage(Message message, byte[] pattern) {
        this.waker.heard(new String(message.getBody(), StandardCharsets.UTF_8));
    }

    @Override
    public void onChannelSubscribed(byte[] channel, long count) {
        this.subscribed.run();
        // what fell due while this node was not subscribed
        this.waker.wakeUp();
    }
}
