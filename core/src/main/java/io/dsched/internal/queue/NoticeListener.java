package io.dsched.internal.queue;

import io.dsched.internal.engine.DschedPhases;
import io.dsched.internal.execution.JobTargets;
import io.dsched.internal.store.ClusterTables;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.UUID;
import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.jdbc.core.JdbcTemplate;

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

    /** How long one wait for notices blocks, so that a stop is seen. */
    private static final int WAIT_MILLIS = 250;

    private static final String PROBE = "probe ";

    private final DataSource dataSource;

    private final JdbcTemplate jdbc;

    private final String channel;

    private final JobTargets targets;

    private final Runnable wakeQueue;

    private final String probe;

    private final Object pause = new Object();

    private final boolean enabled;

    private volatile boolean running;

    private volatile Hearing hearing = Hearing.NOT_YET;

    private Thread thread;

    private long probes;

    /**
     * Creates a listener.
     * @param dataSource the pool it takes its connection from
     * @param tables the cluster's tables, which name its channel
     * @param targets the jobs and handlers this node runs
     * @param wakeQueue wakes this node's queue
     * @param nodeId this node, which names its probes
     * @param enabled whether it starts with the application: on PostgreSQL, on a node that runs jobs,
     *     unless notices are turned off
     */
    public NoticeListener(
            DataSource dataSource,
            ClusterTables tables,
            JobTargets targets,
            Runnable wakeQueue,
            String nodeId,
            boolean enabled) {
        this.enabled = enabled;
        this.dataSource = dataSource;
        this.jdbc = new JdbcTemplate(dataSource);
        this.channel = channel(tables);
        this.targets = targets;
        this.wakeQueue = wakeQueue;
        this.probe = PROBE + nodeId + " " + UUID.randomUUID();
    }

    /**
     * Returns the channel a cluster's notices go on.
     * @param tables the cluster's tables
     * @return its name, {@code dsched_due} for the default cluster
     */
    public static String channel(ClusterTables tables) {
        return tables.sql("dsched_due");
    }

    /** How a node hears of attempts announced by others. */
    public enum Hearing {
        /** It has not yet checked that notices reach it. */
        NOT_YET,
        /** It listens, and its probes come back. */
        NOTICES,
        /** Its notices went astray, or its connection failed: it polls alone for now. */
        POLLING
    }

    /**
     * Tells how this node hears of due attempts now.
     * @return notices, polling, or not yet known
     */
    public Hearing hearing() {
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
            this.hearing = Hearing.POLLING;
            pauseFor(RETRY_AFTER);
        }
    }

    private void listen(Connection connection) throws SQLException {
        connection.setAutoCommit(true);
        try (Statement statement = connection.createStatement()) {
            statement.execute("LISTEN " + this.channel);
        }
        PgNotifications notices = new PgNotifications(connection);
        boolean first = true;
        while (this.running) {
            if (!probed(notices)) {
                logger.warn(
                        "Notices of due attempts sent on channel '{}' {} this node{}: it finds them by polling,"
                                + " and tries again in {} s",
                        this.channel,
                        first ? "do not reach" : "stopped reaching",
                        first ? " (is it behind a pooler in transaction mode?)" : "",
                        RETRY_AFTER.toSeconds());
                return;
            }
            if (first) {
                first = false;
                this.hearing = Hearing.NOTICES;
                logger.info("Listening for due attempts on channel '{}'", this.channel);
                // what fell due while this node was not listening
                this.wakeQueue.run();
            }
            hear(notices, System.nanoTime() + CHECK_EVERY.toNanos(), null);
        }
    }

    /** Announces a probe from another connection and hears notices until it comes back. */
    private boolean probed(PgNotifications notices) throws SQLException {
        String token = this.probe + " " + (++this.probes);
        this.jdbc.query("SELECT pg_notify(?, ?)", (resultSet) -> null, this.channel, token);
        return hear(notices, System.nanoTime() + PROBE_WAIT.toNanos(), token);
    }

    /**
     * Hears notices until {@code deadline}, or until {@code token} comes back.
     * @return whether the token came back
     */
    private boolean hear(PgNotifications notices, long deadline, String token) throws SQLException {
        while (this.running && deadline - System.nanoTime() > 0) {
            boolean wake = false;
            boolean back = false;
            for (String name : notices.await(WAIT_MILLIS)) {
                back |= name.equals(token);
                wake |= this.targets.names().contains(name);
            }
            if (wake) {
                this.wakeQueue.run();
            }
            if (back) {
                return true;
            }
        }
        return false;
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
