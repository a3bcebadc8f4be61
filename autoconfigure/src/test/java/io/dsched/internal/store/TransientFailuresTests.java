package io.dsched.internal.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.transaction.TransactionSystemException;

class TransientFailuresTests {

    @Test
    void aRollbackThatFailedOnALostConnectionIsTriedAgainAndAConstraintViolationIsNot() {
        // as DataSourceTransactionManager reports a rollback on a connection the server closed
        TransactionSystemException closed = new TransactionSystemException(
                "JDBC rollback failed", new SQLException("This connection has been closed.", "08003"));
        TransactionSystemException terminated = new TransactionSystemException(
                "JDBC rollback failed",
                new SQLException("terminating connection due to administrator command", "57P01"));

        assertThat(TransientFailures.isTransient(closed)).isTrue();
        assertThat(TransientFailures.isTransient(terminated)).isTrue();
        assertThat(TransientFailures.isTransient(
                        new DuplicateKeyException("duplicate", new SQLException("duplicate key", "23505"))))
                .isFalse();
        assertThat(TransientFailures.isTransient(new TransactionSystemException(
                        "JDBC commit failed", new SQLException("value too long", "22001"))))
                .isFalse();
    }

    @Test
    void aRollbackThatFailedIsTriedAgainWhenWhatMadeItRollBackWasTransient() {
        // as TransactionTemplate reports it: the rollback's failure thrown (here with no SQL state,
        // which alone is not taken for a lost connection), the write's own failure attached
        TransactionSystemException lost =
                new TransactionSystemException("JDBC rollback failed", new SQLException("Connection is closed"));
        lost.initApplicationException(new DataAccessResourceFailureException(
                "terminating connection", new SQLException("terminating connection", "57P01")));
        TransactionSystemException refused =
                new TransactionSystemException("JDBC rollback failed", new SQLException("Connection is closed"));
        refused.initApplicationException(
                new DuplicateKeyException("duplicate", new SQLException("duplicate key", "23505")));

        assertThat(TransientFailures.isTransient(lost)).isTrue();
        assertThat(TransientFailures.isTransient(refused)).isFalse();
    }
}
