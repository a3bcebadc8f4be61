package io.dsched.internal.queue;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import org.postgresql.PGConnection;
import org.postgresql.PGNotification;

/**
 * The notifications a PostgreSQL connection has received, read through the driver's own API: the
 * one class that needs PostgreSQL's driver, loaded only on PostgreSQL.
 */
final class PgNotifications {

    private final PGConnection connection;

    PgNotifications(Connection connection) throws SQLException {
        this.connection = connection.unwrap(PGConnection.class);
    }

    /**
     * Waits for notifications.
     * @param millis how long to wait at most
     * @return the payloads of those received, none if none came in time
     * @throws SQLException if the connection fails
     */
    List<String> await(int millis) throws SQLException {
        PGNotification[] received = this.connection.getNotifications(millis);
        if (received == null) {
            return List.of();
        }
        List<String> payloads = new ArrayList<>(received.length);
        for (PGNotification notification : received) {
            payloads.add(notification.getParameter());
        }
        return payloads;
    }
}
