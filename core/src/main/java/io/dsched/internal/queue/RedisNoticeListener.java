package io.dsched.internal.queue;

import io.dsched.internal.engine.DschedPhases;
import io.dsched.internal.execution.JobTargets;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.data.redis.connection.Message;
import org.springframework.data.redis.connection.MessageListener;
import org.springframework.data.redis.connection.SubscriptionListener;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;
import org.springframework.util.backoff.FixedBackOff;

/**
 * Wakes this node's queue when a node announces due attempts of a job this node runs through
 * Redis ({@link RedisNoticeChannel}): a subscription to the cluster's channel, kept by Spring Data
 * Redis's listener container on a connection of its own, which subscribes again after
 * {@link #RETRY_AFTER} when Redis goes away. Redis keeps no message for a node that is not
 * subscribed: each time the subscription is made, the queue looks for what fell due meanwhile, and
 * polling stays as the backstop.
 */
public final class RedisNoticeListener implements SmartLifecycle {

    private static final Logger logger = LoggerFactory.getLogger(RedisNoticeListener.class);

    /** How long a node whose subscription failed polls before it subscribes again. */
    static final Duration RETRY_AFTER = Duration.ofSeconds(5);

    private final RedisNoticeChannel channel;

    private final NoticeWaker waker;

    private final boolean enabled;

    private volatile RedisMessageListenerContainer container;

    private volatile NoticeHearing hearing = NoticeHearing.NOT_YET;

    /**
     * Creates a listener.
     * @param channel the cluster's channel on Redis
     * @param targets the jobs and handlers this node runs
     * @param queue this node's queue, which it wakes
     * @param enabled whether it listens at all: on a node that runs jobs, unless notices are off
     */
    public RedisNoticeListener(RedisNoticeChannel channel, JobTargets targets, ExecutionQueue queue, boolean enabled) {
        this.channel = channel;
        this.waker = new NoticeWaker(targets, queue);
        this.enabled = enabled;
    }

    /**
     * Tells how this node hears of due attempts now.
     * @return notices while subscribed, polling once the subscription failed, or not yet known
     */
    public NoticeHearing hearing() {
        return this.hearing;
    }

    @Override
    public void start() {
        if (!this.enabled || this.container != null) {
            return;
        }
        RedisMessageListenerContainer subscription = new RedisMessageListenerContainer();
        subscription.setConnectionFactory(this.channel.connections());
        subscription.setRecoveryBackoff(new FixedBackOff(RETRY_AFTER.toMillis(), FixedBackOff.UNLIMITED_ATTEMPTS));
        subscription.setErrorHandler(
                (ex) -> logger.warn("Could not read a notice of due attempts: {}", ex.getMessage()));
        subscription.addMessageListener(new Subscriber(), new ChannelTopic(this.channel.name()));
        subscription.afterPropertiesSet();
        this.container = subscription;
        subscription.start();
    }

    @Override
    public void stop() {
        RedisMessageListenerContainer subscription = this.container;
        this.container = null;
        if (subscription != null) {
            try {
                subscription.destroy();
            } catch (Exception ex) {
                logger.debug("Could not close the subscription to notices of due attempts", ex);
            }
        }
    }

    @Override
    public boolean isAutoStartup() {
        return this.enabled;
    }

    @Override
    public boolean isRunning() {
        return this.container != null;
    }

    @Override
    public int getPhase() {
        return DschedPhases.ENGINE;
    }

    /** Hears the notices, and when the subscription is made or lost. */
    private final class Subscriber implements MessageListener, SubscriptionListener {

        @Override
        public void onMessage(Message message, byte[] pattern) {
            RedisNoticeListener.this.waker.heard(new String(message.getBody(), StandardCharsets.UTF_8));
        }

        @Override
        public void onChannelSubscribed(byte[] channel, long count) {
            if (RedisNoticeListener.this.hearing != NoticeHearing.NOTICES) {
                logger.info(
                        "Listening for due attempts on Redis channel '{}'", RedisNoticeListener.this.channel.name());
            }
            RedisNoticeListener.this.hearing = NoticeHearing.NOTICES;
            // what fell due while this node was not subscribed
            RedisNoticeListener.this.waker.wakeUp();
        }

        @Override
        public void onChannelUnsubscribed(byte[] channel, long count) {
            if (isRunning()) {
                RedisNoticeListener.this.hearing = NoticeHearing.POLLING;
                logger.warn("Notices of due attempts stopped reaching this node through Redis: it finds them by"
                        + " polling until it subscribes again");
            }
        }
    }
}
