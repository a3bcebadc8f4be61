package io.dsched.internal.queue;

import io.dsched.internal.engine.DschedPhases;
import io.dsched.internal.execution.JobTargets;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.UUID;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Wakes this node's queue when another node announces due attempts of a job this node runs
 * ({@link PostgresNotices}): one connection of the pool stays open, listening on the cluster's
 * channel. Polling stays as the backstop.
 *
 * <p>A notice reaches this node only if its connection is a session of its own. Behind a pooler that
 * lends server connections per transaction (PgBouncer's transaction mode) it is not: the listening
 * session goes back to the pooler and notices go astray. So the listener checks that notices
 * arrive, at once and then every {@link #CHECK_EVERY}: it announces a probe from another connection
 * and waits for it. A node whose probe does not come back within {@link #PROBE_WAIT} says so, gives
 * its connection back and finds new attempts by polling, trying again after {@link #RETRY_AFTER}.
 */
public final class NoticeListener implements SmartLifecycle {

    private static final Logger logger = LoggerFactory.getLogger(NoticeListener.class);

    /** How long a probe may take to come back. */
    static final Duration PROBE_WAIT = Duration.ofSeconds(2);

    /** How often a listening node checks that notices still arrive. */
    static final Duration CHECK_EVERY = Duration.ofSeconds(30);

    /** How long a node whose notices went astray, or whose connection failed, polls before listening again. */
    static final Duration RETRY_AFTER = Duration.ofSeconds(60);

    private static final String PROBE = "probe ";

    private final DataSource dataSource;

    private final NoticeChannel channel;

    private final JobTargets targets;

    private final Runnable wakeQueue;

    private final String probe;

    private final Object pause = new Object();

    private final boolean enabled;

    private volatile boolean running;

    private volatile NoticeHearing hearing = NoticeHearing.NOT_YET;

    private Thread thread;

    /**
     * Creates a listener.
     * @param dataSource the pool it takes its connection from
     * @param channel the cluster's channel
     * @param targets the jobs and handlers this node runs
     * @param wakeQueue wakes this node's queue
     * @param nodeId this node, which names its probes
     * @param enabled whether it starts with the application: on PostgreSQL, on a node that runs jobs,
     *     unless notices are turned off
     */
    public NoticeListener(
            DataSource dataSource,
            NoticeChannel channel,
            JobTargets targets,
            Runnable wakeQueue,
            String nodeId,
            boolean enabled) {
        this.enabled = enabled;
        this.dataSource = dataSource;
        this.channel = channel;
        this.targets = targets;
        this.wakeQueue = wakeQueue;
        this.probe = PROBE + nodeId + " " + UUID.randomUUID();
    }

    /**
     * Tells how this node hears of due attempts now.
     * @return notices, polling, or not yet known
     */
    public NoticeHearing hearing() {
        return this.hearing;
    }

    @Override
    public void start() {
        this.running = true;
        this.thread = new Thread(this::run, "dsched-queue-listener");
        this.thread.setDaemon(true);
        this.thread.start();
    }

    private void run() {
        while (this.running) {
            try (Connection connection = this.dataSource.getConnection()) {
                listen(connection);
            } catch (SQLException | RuntimeException ex) {
                if (this.running) {
                    logger.warn(
                            "Stopped listening for due attempts ({}); polling, and listening again in {} s",
                            ex.getMessage(),
                            RETRY_AFTER.toSeconds());
                }
            }
            this.hearing = NoticeHearing.POLLING;
            pauseFor(RETRY_AFTER);
        }
    }

    private void listen(Connection connection) throws SQLException {
        NoticeSession session = NoticeSession.listen(connection, this.channel, this.probe);
        boolean first = true;
        while (this.running) {
            if (!session.probe(PROBE_WAIT.toNanos(), this::running, this::heard)) {
                logger.warn(
                        "Notices of due attempts sent on channel '{}' {} this node{}: it finds them by polling,"
                                + " and tries again in {} s",
                        this.channel.name(),
                        first ? "do not reach" : "stopped reaching",
                        first ? " (is it behind a pooler in transaction mode?)" : "",
                        RETRY_AFTER.toSeconds());
                return;
            }
            if (first) {
                first = false;
                this.hearing = NoticeHearing.NOTICES;
                logger.info("Listening for due attempts on channel '{}'", this.channel.name());
                // what fell due while this node was not listening
                this.wakeQueue.run();
            }
            session.hear(System.nanoTime() + CHECK_EVERY.toNanos(), this::running, this::heard);
        }
    }

    private boolean running() {
        return this.running;
    }

    private void heard(String jobName) {
        if (this.targets.names().contains(jobName)) {
            this.wakeQueue.run();
        }
    }

    private void pauseFor(Duration duration) {
        synchronized (this.pause) {
            if (this.running) {
                try {
                    this.pause.wait(duration.toMillis());
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                    this.running = false;
                }
            }
        }
    }

    @Override
    public void stop() {
        synchronized (this.pause) {
            this.running = false;
            this.pause.notifyAll();
        }
        if (this.thread != null) {
            try {
                this.thread.join(PROBE_WAIT.toMillis());
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public boolean isAutoStartup() {
        return this.enabled;
    }

    @Override
    public boolean isRunning() {
        return this.running;
    }

    @Override
    public int getPhase() {
        return DschedPhases.ENGINE;
    }
}
