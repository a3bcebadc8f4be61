package io.dsched.internal.store;

import java.time.Duration;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;

/**
 * Retries a write to dsched's tables while the database is unreachable, with a growing pause and
 * a bound. Only writes that are safe to repeat go through it: a claim (the unique key refuses a
 * second one) and an outcome (fenced on the claim's owner).
 */
public final class TransientFailures {

    private static final Logger logger = LoggerFactory.getLogger(TransientFailures.class);

    private static final long FIRST_PAUSE = 100;

    private static final long LONGEST_PAUSE = 2000;

    private TransientFailures() {}

    /**
     * Runs a write, retrying it while the database fails transiently.
     * @param what what is written, for the log
     * @param patience how long to keep trying
     * @param write the write
     * @param <T> its result
     * @return the write's result
     */
    public static <T> T retry(String what, Duration patience, Supplier<T> write) {
        long deadline = System.nanoTime() + patience.toNanos();
        long pause = FIRST_PAUSE;
        while (true) {
            try {
                return write.get();
            } catch (RuntimeException ex) {
                if (!isTransient(ex) || System.nanoTime() > deadline) {
                    throw ex;
                }
                logger.warn("Could not write {} ({}); trying again in {} ms", what, ex.getMessage(), pause);
                try {
                    Thread.sleep(pause);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    throw ex;
                }
                pause = Math.min(pause * 2, LONGEST_PAUSE);
            }
        }
    }

    /**
     * Whether a failure means the database could not be reached or could not answer now.
     * @param failure the failure
     * @return {@code true} if trying again later may succeed
     */
    public static boolean isTransient(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            // a rollback that failed as well hides why the transaction rolled back, which decides:
            // once the server cut the connection, the rollback fails with whatever the driver
            // says of a closed connection, not always a connection error
            if (cause instanceof TransactionSystemException rollback
                    && rollback.getApplicationException() != null
                    && isTransient(rollback.getApplicationException())) {
                return true;
            }
            if (cause instanceof TransientDataAccessException
                    || cause instanceof DataAccessResourceFailureException
                    || cause instanceof RecoverableDataAccessException
                    || cause instanceof CannotCreateTransactionException
                    || cause instanceof java.sql.SQLTransientException
                    || cause instanceof java.sql.SQLRecoverableException
                    || cause instanceof java.sql.SQLNonTransientConnectionException) {
                return true;
            }
            // a connection lost mid-transaction surfaces as a failed rollback ("JDBC rollback
            // failed") over a driver's plain SQLException: class 08 is a connection exception, and
            // PostgreSQL's 57P01 to 57P03 an administrator's shutdown or a server not yet started
            if (cause instanceof java.sql.SQLException sql
                    && sql.getSQLState() != null
                    && (sql.getSQLState().startsWith("08") || sql.getSQLState().startsWith("57P0"))) {
                return true;
            }
            if (cause.getCause() == cause) {
                break;
            }
        }
        return false;
    }
}
