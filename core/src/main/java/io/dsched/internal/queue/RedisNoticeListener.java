package io.dsched.internal.queue;

import io.dsched.internal.engine.DschedPhases;
import io.dsched.internal.execution.JobTargets;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

/**
 * Wakes this node's queue when a node announces due attempts of a job this node runs through
 * Redis ({@link RedisNoticeChannel}): a subscription to the cluster's channel, by Spring Data
 * Redis's listener container on a connection of its own. It subscribes on a thread of its own, so
 * that the application starts whether Redis answers or not, and tries again every {@link
 * #RETRY_AFTER} until it can; a subscription whose connection is lost is made again by the Redis
 * client itself. Redis keeps no message for a node that is not subscribed: each time the
 * subscription is made the queue looks for what fell due meanwhile, and polling stays as the
 * backstop.
 */
public final class RedisNoticeListener implements SmartLifecycle {

    private static final Logger logger = LoggerFactory.getLogger(RedisNoticeListener.class);

    /** How long a node that could not subscribe polls before it tries again. */
    static final Duration RETRY_AFTER = Duration.ofSeconds(5);

    private final RedisNoticeChannel channel;

    private final NoticeWaker waker;

    private final boolean enabled;

    /** Subscribes, and again after a failure. */
    private volatile ScheduledExecutorService thread;

    /** Reads the messages, one at a time. */
    private volatile ExecutorService reader;

    private volatile RedisMessageListenerContainer container;

    private volatile NoticeHearing hearing = NoticeHearing.NOT_YET;

    private boolean warned;

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
     * @return notices once subscribed (the Redis client subscribes again by itself after losing
     *     its connection), polling while it cannot subscribe, or not yet known
     */
    public NoticeHearing hearing() {
        return this.hearing;
    }

    @Override
    public void start() {
        if (!this.enabled || this.thread != null) {
            return;
        }
        ScheduledExecutorService subscriber =
                Executors.newSingleThreadScheduledExecutor(daemon("dsched-redis-subscriber"));
        this.reader = Executors.newSingleThreadExecutor(daemon("dsched-redis-notices"));
        this.thread = subscriber;
        subscriber.execute(() -> subscribe(subscriber));
    }

    private void subscribe(ScheduledExecutorService subscriber) {
        if (this.thread != subscriber) {
            return;
        }
        RedisMessageListenerContainer subscription = new RedisMessageListenerContainer();
        subscription.setConnectionFactory(this.channel.connections());
        subscription.setTaskExecutor(this.reader);
        subscription.setErrorHandler(
                (ex) -> logger.warn("Could not read a notice of due attempts: {}", ex.getMessage()));
        subscription.addMessageListener(
                new RedisSubscriber(this.waker, this::subscribed), new ChannelTopic(this.channel.name()));
        try {
            subscription.afterPropertiesSet();
            subscription.start();
            this.container = subscription;
        } catch (RuntimeException ex) {
            close(subscription);
            this.hearing = NoticeHearing.POLLING;
            if (!this.warned) {
                this.warned = true;
                logger.warn(
                        "Could not subscribe to notices of due attempts on Redis ({}): polling, and trying again"
                                + " every {} s",
                        ex.getMessage(),
                        RETRY_AFTER.toSeconds());
            }
            if (this.thread == subscriber) {
                subscriber.schedule(() -> subscribe(subscriber), RETRY_AFTER.toMillis(), TimeUnit.MILLISECONDS);
            }
        }
    }

    @Override
    public void stop() {
        ScheduledExecutorService subscriber = this.thread;
        this.thread = null;
        if (subscriber != null) {
            subscriber.shutdownNow();
            this.reader.shutdownNow();
        }
        RedisMessageListenerContainer subscription = this.container;
        this.container = null;
        close(subscription);
    }

    private static void close(RedisMessageListenerContainer subscription) {
        if (subscription == null) {
            return;
        }
        try {
            subscription.destroy();
        } catch (Exception ex) {
            logger.debug("Could not close the subscription to notices of due attempts", ex);
        }
    }

    private static ThreadFactory daemon(String name) {
        return (runnable) -> {
            Thread thread = new Thread(runnable, name);
            thread.setDaemon(true);
            return thread;
        };
    }

    private void subscribed() {
        if (this.hearing != NoticeHearing.NOTICES) {
            logger.info("Listening for due attempts on Redis channel '{}'", this.channel.name());
        }
        this.hearing = NoticeHearing.NOTICES;
    }

    @Override
    public boolean isAutoStartup() {
        return this.enabled;
    }

    @Override
    public boolean isRunning() {
        return this.thread != null;
    }

    @Override
    public int getPhase() {
        return DschedPhases.ENGINE;
    }
}
