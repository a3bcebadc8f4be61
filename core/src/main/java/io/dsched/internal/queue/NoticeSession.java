package io.dsched.internal.queue;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * One database session listening on a channel, read through PostgreSQL's driver (the one class
 * that needs it, loaded only on PostgreSQL): the notices it hears, and whether a probe announced
 * from another session comes back to it.
 */
final class NoticeSession {

    /** How long one wait for notices blocks, so that a stop is seen. */
    private static final int WAIT_MILLIS = 250;

    private final PGConnection connection;

    private final NoticeChannel channel;

    private final String probe;

    private long probes;

    private NoticeSession(PGConnection connection, NoticeChannel channel, String probe) {
        this.connection = connection;
        this.channel = channel;
        this.probe = probe;
    }

    /**
     * Starts listening on a channel.
     * @param connection the session, kept open by the caller for as long as it listens
     * @param channel the channel, whose connections (sessions other than this) announce the probes
     * @param probe what leads this node's probes, unlike any job's name
     * @return the listening session
     * @throws SQLException if it cannot listen
     */
    static NoticeSession listen(Connection connection, NoticeChannel channel, String probe) throws SQLException {
        connection.setAutoCommit(true);
        try (Statement statement = connection.createStatement()) {
            statement.execute("LISTEN " + channel.name());
        }
        return new NoticeSession(connection.unwrap(PGConnection.class), channel, probe);
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
        String token = this.probe + " " + (++this.probes);
        this.channel.announce(token);
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
            PGNotification[] received = this.connection.getNotifications(WAIT_MILLIS);
            boolean back = false;
            for (PGNotification notification : (received != null) ? received : new PGNotification[0]) {
                String name = notification.getParameter();
                if (name.equals(token)) {
                    back = true;
                } else if (!name.startsWith(this.probe)) {
                    heard.accept(name);
                }
            }
            if (back) {
                return true;
            }
        }
        return false;
    }
}
