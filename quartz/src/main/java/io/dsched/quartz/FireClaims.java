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
     * @return what to tell the claims once the transaction has ended, or {@code null}
     * @throws SQLException if a claim fails; the claims are then rolled back to the savepoint and
     *     the fires go on without them
     */
    Claimed claim(Connection connection, List<TriggerFiredBundle> fired) throws SQLException;

    /**
     * Takes over a fire that committed with its claim ahead of its time but that no worker will
     * start: the store fired it ahead ({@link SkipLockedJobStore#setFireAheadMillis}), and Quartz's
     * thread put it back (its schedule changed while it waited, or it stopped) or the store shut
     * down before Quartz's thread took it. Quartz records the fire complete afterwards; the
     * application runs it elsewhere, at its time. The store fires ahead only for claims that
     * {@linkplain #takesLeftFires take left fires over}.
     * @param fire the fire, as {@link Claimed#committed} saw it
     */
    default void left(TriggerFiredBundle fire) {}

    /**
     * Whether {@link #left} takes over the fires it is given; only then does the store fire ahead.
     * @return {@code false} unless overridden
     */
    default boolean takesLeftFires() {
        return false;
    }

    /**
     * Claims made in a transaction that fires triggers, told how it ended. Exactly one of the two
     * is called, on the thread that fired the triggers.
     */
    interface Claimed {

        /**
         * The transaction committed, or its commit's answer was lost and the fires were found
         * recorded afterwards (which may take as long as the database is unreachable): called
         * before any of the fires reaches a worker.
         */
        void committed();

        /**
         * The transaction did not commit, or whether it did is not known (Quartz stopped
         * confirming it as it shut down): the fires do not reach workers. Quartz fires the
         * triggers of a transaction that did not commit again; what one that committed after all
         * claimed is the application's to recover.
         */
        void notCommitted();
    }
}
