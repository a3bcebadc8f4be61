package io.dsched.quartz.contract;

import io.dsched.quartz.FireClaims;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.quartz.spi.TriggerFiredBundle;

/**
 * Holds the first transaction that fires triggers open, after noting its session, so that the test
 * can cut that session before the transaction commits; it records how each transaction it claimed
 * in was told to have ended.
 */
final class CutClaims implements FireClaims {

    private final TestDatabase.Kind kind;

    private final CountDownLatch held = new CountDownLatch(1);

    private final CountDownLatch release = new CountDownLatch(1);

    private final List<String> endings = new CopyOnWriteArrayList<>();

    private volatile long session = -1;

    CutClaims(TestDatabase.Kind kind) {
        this.kind = kind;
    }

    @Override
    public Claimed claim(Connection connection, List<TriggerFiredBundle> fired) throws SQLException {
        if (this.held.getCount() > 0) {
            this.session = session(connection);
            this.held.countDown();
            try {
                this.release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }
        return new Claimed() {

            @Override
            public void committed() {
                CutClaims.this.endings.add("committed");
            }

            @Override
            public void notCommitted() {
                CutClaims.this.endings.add("not committed");
            }
        };
    }

    private long session(Connection connection) throws SQLException {
        String query = (this.kind == TestDatabase.Kind.POSTGRES) ? "SELECT pg_backend_pid()" : "SELECT CONNECTION_ID()";
        try (Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery(query)) {
            row.next();
            return row.getLong(1);
        }
    }

    boolean holding() {
        return this.held.getCount() == 0 && this.release.getCount() > 0;
    }

    /** Cuts the held transaction's session from another one, as a database restart or a network cut would. */
    void cut(Connection other) throws SQLException {
        try (Statement statement = other.createStatement()) {
            statement.execute(
                    (this.kind == TestDatabase.Kind.POSTGRES)
                            ? "SELECT pg_terminate_backend(" + this.session + ")"
                            : "KILL " + this.session);
        }
    }

    void release() {
        this.release.countDown();
    }

    /** How each transaction claimed in ended, in the order they were told. */
    List<String> endings() {
        return List.copyOf(this.endings);
    }
}
