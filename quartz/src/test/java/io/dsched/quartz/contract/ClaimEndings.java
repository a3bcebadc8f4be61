package io.dsched.quartz.contract;

import io.dsched.quartz.FireClaims;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.quartz.spi.TriggerFiredBundle;

/**
 * Claims nothing, but records how each transaction that fires triggers was told to have ended;
 * inside the first such transaction, it lets the test do something to it.
 */
final class ClaimEndings implements FireClaims {

    /** What the test does inside the first transaction that fires triggers. */
    @FunctionalInterface
    interface FirstClaim {

        void inside(Connection connection) throws SQLException;
    }

    private final FirstClaim first;

    private final AtomicBoolean seen = new AtomicBoolean();

    private final List<String> endings = new CopyOnWriteArrayList<>();

    ClaimEndings(FirstClaim first) {
        this.first = first;
    }

    @Override
    public Claimed claim(Connection connection, List<TriggerFiredBundle> fired) throws SQLException {
        if (this.seen.compareAndSet(false, true)) {
            this.first.inside(connection);
        }
        return new Claimed() {

            @Override
            public void committed() {
                ClaimEndings.this.endings.add("committed");
            }

            @Override
            public void notCommitted() {
                ClaimEndings.this.endings.add("not committed");
            }
        };
    }

    /** How each transaction ended, in the order they were told. */
    List<String> endings() {
        return List.copyOf(this.endings);
    }
}
