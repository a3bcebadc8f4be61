package io.dsched.internal.queue;

import io.dsched.internal.engine.DschedPhases;
import io.dsched.internal.execution.JobTargets;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Wakes this node's queue when a node announces due attempts of a job this node runs on PostgreSQL
 * ({@link ClusterNotices#postgres}): one connection of the pool stays open, listening on the cluster's channel.
 * Polling stays as the backstop.
 *
 * <p>A notice reaches this node only if its connection is a session of its own. Behind a pooler that
 * lends server connections per transaction (PgBouncer's transaction mode) it is not: the listening
 * session goes back to the pooler and notices go astray. So the listener checks that notices
 * arrive, first and then every {@link #CHECK_EVERY}, on a channel of its own ({@link NoticeSession}):
 * it announces a probe from another connection and waits {@link #PROBE_WAIT} for it. A node whose
 * first probe does not come back, twice, polls alone and checks again after {@link #ASTRAY_RETRY}; one
 * whose connection fails, or whose later probe does not either, listens again after {@link
 * #RETRY_AFTER}.
 */
public final class NoticeListener implements SmartLifecycle, NoticeHearer {

    private static final Logger logger = LoggerFactory.getLogger(NoticeListener.class);

    /** How long a probe may take to come back. */
    static final Duration PROBE_WAIT = Duration.ofSeconds(2);

    /** How often a listening node checks that notices still arrive. */
    static final Duration CHECK_EVERY = Duration.ofSeconds(30);

    /** How long a node whose connection failed polls before it listens again. */
    static final Duration RETRY_AFTER = Duration.ofSeconds(60);

    /** How long a node whose probes went astray polls before it checks again. */
    static final Duration ASTRAY_RETRY = Duration.ofMinutes(10);

    private final NoticeChannel channel;

    private final NoticeWaker waker;

    private final String probeChannel;

    private final Object pause = new Object();

    private final boolean enabled;

    /** The thread that listens; another, or none, tells it to stop. */
    private volatile Thread thread;

    private volatile NoticeHearing hearing;

    private boolean warnedAstray;

    private final AtomicLong heardCount = new AtomicLong();

    private volatile String lastHeard;

    /**
     * Creates a listener.
     * @param channel the cluster's channel, whose pool it takes its connection from
     * @param targets the jobs and handlers this node runs
     * @param queue this node's queue, which it wakes
     * @param enabled whether it listens at all: on PostgreSQL, on a node that runs jobs, unless
     *     notices are turned off
     */
    public NoticeListener(NoticeChannel channel, JobTargets targets, ExecutionQueue queue, boolean enabled) {
        this.channel = channel;
        this.waker = new NoticeWaker(targets, queue);
        this.enabled = enabled;
        this.hearing = enabled ? NoticeHearing.NOT_YET : NoticeHearing.OFF;
        // at most 31 + 7 + 12 characters: PostgreSQL's channel names are shorter than 64 bytes
        this.probeChannel = channel.name() + "_probe_"
                + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    }

    @Override
    public NoticeHearing hearing() {
        return this.hearing;
    }

    /** This node's probe channel. */
    String probeChannel() {
        return this.probeChannel;
    }

    @Override
    public void start() {
        if (!this.enabled || this.thread != null) {
            return;
        }
        Thread listener = new Thread(this::run, "dsched-queue-listener");
        listener.setDaemon(true);
        synchronized (this.pause) {
            this.hearing = NoticeHearing.NOT_YET;
            this.thread = listener;
        }
        listener.start();
    }

    /**
     * Records how this node hears now, unless the thread's run was stopped meanwhile: a thread that
     * outlives a stop and a start again must not overwrite what the new run found.
     */
    private void hear(NoticeHearing now) {
        synchronized (this.pause) {
            if (running()) {
                this.hearing = now;
            }
        }
    }

    private boolean running() {
        return this.thread == Thread.currentThread();
    }

    private void run() {
        while (running()) {
            Duration pause = RETRY_AFTER;
            try (Connection connection = this.channel.dataSource().getConnection()) {
                NoticeSession session = NoticeSession.open(connection, this.channel, this.probeChannel);
                try {
                    pause = listen(session);
                } finally {
                    session.close();
                }
            } catch (SQLException | RuntimeException ex) {
                if (running()) {
                    hear(NoticeHearing.POLLING);
                    logger.warn(
                            "Stopped listening for due attempts ({}); polling, and listening again in {} s",
                            ex.getMessage(),
                            RETRY_AFTER.toSeconds());
                }
            } catch (LinkageError ex) {
                hear(NoticeHearing.POLLING);
                logger.error("Cannot listen for due attempts without PostgreSQL's driver; polling", ex);
                return;
            }
            pauseFor(pause);
        }
    }

    /** Listens while the probes come back; returns how long to poll alone once they do not. */
    private Duration listen(NoticeSession session) throws SQLException {
        if (!probed(session)) {
            if (!running()) {
                return RETRY_AFTER;
            }
            hear(NoticeHearing.ASTRAY);
            if (!this.warnedAstray) {
                this.warnedAstray = true;
                logger.warn(
                        "Notices of due attempts do not reach this node (is it behind a pooler in transaction"
                                + " mode?): it finds them by polling, and checks again every {} min",
                        ASTRAY_RETRY.toMinutes());
            }
            return ASTRAY_RETRY;
        }
        session.listenToCluster();
        hear(NoticeHearing.NOTICES);
        logger.info("Listening for due attempts on channel '{}'", this.channel.name());
        // what fell due while this node was not listening
        this.waker.wakeUp();
        while (running()) {
            session.hear(System.nanoTime() + CHECK_EVERY.toNanos(), this::running, this::heard);
            if (running() && !probed(session) && running()) {
                hear(NoticeHearing.POLLING);
                logger.warn(
                        "Notices of due attempts stopped reaching this node: it finds them by polling, and"
                                + " listens again in {} s",
                        RETRY_AFTER.toSeconds());
                return RETRY_AFTER;
            }
        }
        return RETRY_AFTER;
    }

    /** Whether a probe comes back, at the second try if not at the first (with twice the wait). */
    private boolean probed(NoticeSession session) throws SQLException {
        return session.probe(PROBE_WAIT.toNanos(), this::running, this::heard)
                || session.probe(PROBE_WAIT.multipliedBy(2).toNanos(), this::running, this::heard);
    }

    private void heard(String payload) {
        this.heardCount.incrementAndGet();
        this.lastHeard = payload;
        this.waker.heard(payload);
    }

    /**
     * Tells how many notices of the cluster this node heard, and the last one, for a diagnosis.
     * @return the count and the last payload
     */
    public String heardSoFar() {
        return this.heardCount.get() + " notices, the last '" + this.lastHeard + "'";
    }

    private void pauseFor(Duration duration) {
        synchronized (this.pause) {
            if (running()) {
                try {
                    this.pause.wait(duration.toMillis());
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                    if (running()) {
                        this.thread = null;
                    }
                }
            }
        }
    }

    @Override
    public void stop() {
        Thread listener = this.thread;
        synchronized (this.pause) {
            // a stopped listener hears nothing; its thread, on its way out, no longer writes (hear)
            this.hearing = NoticeHearing.OFF;
            this.thread = null;
            this.pause.notifyAll();
        }
        if (listener != null) {
            try {
                listener.join(PROBE_WAIT.toMillis());
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
        return this.thread != null;
    }

    @Override
    public int getPhase() {
        return DschedPhases.ENGINE;
    }
}
