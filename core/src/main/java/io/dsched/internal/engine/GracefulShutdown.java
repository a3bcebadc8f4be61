package io.dsched.internal.engine;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationContextAware;
import org.springframework.context.ApplicationListener;
import org.springframework.context.event.ContextClosedEvent;

/**
 * How a node stops: as soon as its application context starts to close, it takes no new fires and
 * claims no new attempts; then the engine and the queue wait for their running jobs, together
 * within one timeout ({@code dsched.shutdown.timeout}). A job still running when it ends is left
 * to its thread, and its attempt is taken over by another node once this one stops checking in.
 */
public final class GracefulShutdown implements ApplicationListener<ContextClosedEvent>, ApplicationContextAware {

    private static final Logger logger = LoggerFactory.getLogger(GracefulShutdown.class);

    private final Duration timeout;

    private final Clock clock;

    private final List<Runnable> quiescers = new CopyOnWriteArrayList<>();

    private ApplicationContext context;

    private Instant deadline;

    /**
     * Creates the shutdown.
     * @param timeout longest time to wait for running jobs; zero not to wait
     * @param clock the clock
     */
    public GracefulShutdown(Duration timeout, Clock clock) {
        this.timeout = timeout;
        this.clock = clock;
    }

    @Override
    public void setApplicationContext(ApplicationContext context) {
        this.context = context;
    }

    /**
     * Registers what stops a part from taking new work.
     * @param quiescer stops it; called once, when the shutdown begins
     */
    public void onQuiesce(Runnable quiescer) {
        this.quiescers.add(quiescer);
    }

    @Override
    public void onApplicationEvent(ContextClosedEvent event) {
        if (event.getApplicationContext() == this.context) {
            begin();
        }
    }

    /**
     * Begins the shutdown, if it has not begun: starts the timeout and stops every part from
     * taking new work.
     */
    public void begin() {
        synchronized (this) {
            if (this.deadline != null) {
                return;
            }
            this.deadline = this.clock.instant().plus(this.timeout);
        }
        for (Runnable quiescer : this.quiescers) {
            try {
                quiescer.run();
            } catch (RuntimeException ex) {
                logger.warn("Could not stop taking new work: {}", ex.toString());
            }
        }
    }

    /**
     * Returns how much of the timeout is left, beginning the shutdown if it has not begun.
     * @return the time left; zero when it has passed or when the node does not wait
     */
    public Duration remaining() {
        begin();
        Duration left = Duration.between(this.clock.instant(), this.deadline);
        return left.isNegative() ? Duration.ZERO : left;
    }
}
