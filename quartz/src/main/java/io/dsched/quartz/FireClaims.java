package io.dsched.quartz;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import org.quartz.spi.TriggerFiredBundle;

/**
 * Work of the application's own done in the transaction that fires triggers, such as claiming the
 * fires in a table of its own: it commits with the fires or not at all.
 *
 * @see SkipLockedJobStore
 */
@FunctionalInterface
public interface FireClaims {

    /**
     * Claims fires on the connection of the transaction that fires them, behind a savepoint.
     * @param connection the connection, inside the transaction
     * @param fired the fires
     * @return what to run once the transaction has committed, or {@code null}
     * @throws SQLException if a claim fails; the claims are then rolled back to the savepoint and
     *     the fires go on without them
     */
    Runnable claim(Connection connection, List<TriggerFiredBundle> fired) throws SQLException;
}
