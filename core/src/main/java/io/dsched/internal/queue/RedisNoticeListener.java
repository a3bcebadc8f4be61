package io.dsched.internal.queue;

import io.dsched.internal.engine.DschedPhases;
import io.dsched.internal.execution.JobTargets;
import java.time.Duration;
import java.util.concurrent.RejectedExecutionException;
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
public final class RedisNoticeListener implements SmartLifecycle, NoticeHearer {

    private static final Logger logger = LoggerFactory.getLogger(RedisNoticeListener.class);

    /** How long a node that could not subscribe polls before it tries again. */
    static final Duration RETRY_AFTER = Duration.ofSeconds(5);

    private final RedisNoticeChannel channel;

    private final NoticeWaker waker;

    private final boolean enabled;

    private final Object lock = new Object();

    /** The threads of this start, none once stopped; changed under the lock. */
    private volatile RedisThreads threads;

    /** The subscription made; changed under the lock. */
    private RedisMessageListenerContainer container;

    private volatile NoticeHearing hearing;

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
        this.hearing = enabled ? NoticeHearing.NOT_YET : NoticeHearing.OFF;
    }

    /**
     * {@inheritDoc}
     * <p>Notices once subscribed (the Redis client subscribes again by itself after losing its
     * connection), polling while it cannot subscribe.
     */
    @Override
    public NoticeHearing hearing() {
        return this.hearing;
    }

    @Override
    public void start() {
        RedisThreads started;
        synchronized (this.lock) {
            if (!this.enabled || this.threads != null) {
                return;
            }
            started = new RedisThreads();
            this.hearing = NoticeHearing.NOT_YET;
            this.threads = started;
        }
        started.subscriber.execute(() -> subscribe(started));
    }

    private void subscribe(RedisThreads run) {
        if (this.threads != run) {
            return;
        }
        RedisMessageListenerContainer subscription = new RedisMessageListenerContainer();
        subscription.setConnectionFactory(this.channel.connections());
        subscription.setTaskExecutor(run.reader);
        subscription.setSubscriptionExecutor(run.subscription);
        subscription.setErrorHandler(
                (ex) -> logger.warn("Could not read a notice of due attempts: {}", ex.getMessage()));
        subscription.addMessageListener(
                new RedisSubscriber(this.waker, this::subscribed), new ChannelTopic(this.channel.name()));
        try {
            // an unreachable Redis fails here, so that this retries, not the container within start()
            this.channel.ping();
            subscription.afterPropertiesSet();
            subscription.start();
            synchronized (this.lock) {
                if (this.threads == run) {
                    this.container = subscription;
                    return;
                }
            }
            close(subscription);
        } catch (RuntimeException ex) {
            close(subscription);
            retry(run, ex);
        }
    }

    private void retry(RedisThreads run, RuntimeException failure) {
        synchronized (this.lock) {
            if (this.threads != run) {
                return;
            }
            this.hearing = NoticeHearing.POLLING;
        }
        if (!this.warned) {
            this.warned = true;
            logger.warn(
                    "Could not subscribe to notices of due attempts on Redis ({}): polling, and trying again every {} s",
                    failure.getMessage(),
                    RETRY_AFTER.toSeconds());
        }
        try {
            run.subscriber.schedule(() -> subscribe(run), RETRY_AFTER.toMillis(), TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException stopped) {
            // stopped meanwhile
        }
    }

    @Override
    public void stop() {
        RedisThreads stopped;
        RedisMessageListenerContainer subscription;
        synchronized (this.lock) {
            stopped = this.threads;
            subscription = this.container;
            this.threads = null;
            // a stopped listener hears nothing; its subscription's last callbacks no longer write
            this.hearing = NoticeHearing.OFF;
            this.container = null;
        }
        // the subscription first: its last callbacks still find the reader
        close(subscription);
        if (stopped != null) {
            stopped.shutdown();
        }
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

    private void subscribed() {
        if (this.hearing != NoticeHearing.NOTICES) {
            logger.info("Listening for due attempts on Redis channel '{}'", this.channel.name());
        }
        synchronized (this.lock) {
            // a subscription's last callback after a stop changes nothing
            if (this.threads != null) {
                this.hearing = NoticeHearing.NOTICES;
            }
        }
    }

    @Override
    public boolean isAutoStartup() {
        return this.enabled;
    }

    @Override
    public boolean isRunning() {
        return this.threads != null;
    }

    @Override
    public int getPhase() {
        return DschedPhases.ENGINE;
    }
}
