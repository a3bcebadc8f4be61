package io.dsched.quartz.contract;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Holds a transaction open, after noting its session, so that the test can cut that session
 * before the transaction commits, as a database restart or a network cut would.
 */
final class SessionCut implements ClaimEndings.FirstClaim {

    private final TestDatabase.Kind kind;

    private final CountDownLatch held = new CountDownLatch(1);

    private final CountDownLatch release = new CountDownLatch(1);

    private volatile long session = -1;

    SessionCut(TestDatabase.Kind kind) {
        this.kind = kind;
    }

    @Override
    public void inside(Connection connection) throws SQLException {
        String query = (this.kind == TestDatabase.Kind.POSTGRES) ? "SELECT pg_backend_pid()" : "SELECT CONNECTION_ID()";
        try (Statement statement = connection.createStatement();
                ResultSet row = statement.executeQuery(query)) {
            row.next();
            this.session = row.getLong(1);
        }
        this.held.countDown();
        try {
            this.release.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    boolean holding() {
        return this.held.getCount() == 0 && this.release.getCount() > 0;
    }

    /** Cuts the held transaction's session from another one. */
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
}
