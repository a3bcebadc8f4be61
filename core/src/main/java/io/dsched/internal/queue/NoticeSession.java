package io.dsched.internal.queue;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * One database session listening for notices, read through PostgreSQL's driver (the one class that
 * needs it, loaded only on PostgreSQL). It listens first on a channel of this node's own, where
 * only its probes are announced, and on the cluster's channel only once a probe came back: behind
 * a pooler in transaction mode, where a session's {@code LISTEN} stays on a server connection that
 * others borrow, no notice of the cluster's ever reaches a stranger.
 */
final class NoticeSession {

    /** How long one wait for notices blocks, so that a stop is seen. */
    private static final int WAIT_MILLIS = 250;

    private final Connection connection;

    private final PGConnection notices;

    private final NoticeChannel channel;

    private final String probeChannel;

    private long probes;

    private NoticeSession(Connection connection, NoticeChannel channel, String probeChannel) throws SQLException {
        this.connection = connection;
        this.notices = connection.unwrap(PGConnection.class);
        this.channel = channel;
        this.probeChannel = probeChannel;
    }

    /**
     * Starts listening on a node's probe channel.
     * @param connection the session, kept open by the caller for as long as it listens
     * @param channel the cluster's channel, whose pool (sessions other than this) announces the probes
     * @param probeChannel this node's probe channel
     * @return the session
     * @throws SQLException if it cannot listen
     */
    static NoticeSession open(Connection connection, NoticeChannel channel, String probeChannel) throws SQLException {
        NoticeSession session = new NoticeSession(connection, channel, probeChannel);
        connection.setAutoCommit(true);
        session.execute("LISTEN " + probeChannel);
        return session;
    }

    /** Listens on the cluster's channel too. */
    void listenToCluster() throws SQLException {
        execute("LISTEN " + this.channel.name());
    }

    /**
     * Announces a probe from another session and hears notices until it comes back.
     * @param nanos how long to wait for it
     * @param running whether to go on
     * @param heard takes the names of the jobs heard of meanwhile
     * @return whether the probe came back in time
     * @throws SQLException if the session fails
     */
    boolean probe(long nanos, BooleanSupplier running, Consumer<String> heard) throws SQLException {
        String token = Long.toString(++this.probes);
        this.channel.announce(this.probeChannel, List.of(token));
        return hear(System.nanoTime() + nanos, running, heard, token);
    }

    /**
     * Hears notices until a deadline.
     * @param deadline when to stop, in {@link System#nanoTime()}
     * @param running whether to go on
     * @param heard takes the names of the jobs heard of
     * @throws SQLException if the session fails
     */
    void hear(long deadline, BooleanSupplier running, Consumer<String> heard) throws SQLException {
        hear(deadline, running, heard, null);
    }

    private boolean hear(long deadline, BooleanSupplier running, Consumer<String> heard, String token)
            throws SQLException {
        while (running.getAsBoolean() && deadline - System.nanoTime() > 0) {
            PGNotification[] received = this.notices.getNotifications(WAIT_MILLIS);
            boolean back = false;
            for (PGNotification notice : (received != null) ? received : new PGNotification[0]) {
                if (notice.getName().equals(this.probeChannel)) {
                    back |= notice.getParameter().equals(token);
                } else {
                    heard.accept(notice.getParameter());
                }
            }
            if (back) {
                return true;
            }
        }
        return false;
    }

    /**
     * Stops listening and drops what was heard and not read, before the connection goes back to
     * its pool; a connection that cannot is aborted, so that its pool drops it.
     */
    void close() {
        try {
            execute("UNLISTEN *");
            this.notices.getNotifications();
        } catch (SQLException ex) {
            // it may still listen: it must not go back to the pool
            try {
                this.connection.abort(Runnable::run);
            } catch (SQLException | RuntimeException ignored) {
                // the pool sees it broken
            }
        }
    }

    private void execute(String sql) throws SQLException {
        try (Statement statement = this.connection.createStatement()) {
            statement.execute(sql);
        }
    }
}
