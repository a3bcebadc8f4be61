package io.dsched.quartz.contract;

import io.dsched.quartz.FireClaims;
import java.sql.Connection;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.quartz.spi.TriggerFiredBundle;

/**
 * Holds open, once, the transaction in which a node fires a chosen fire: it runs as the store's
 * {@link FireClaims}, inside that transaction, after the fire was recorded and while the rows it
 * locked are still held. The test then races the fire with something else and lets it commit.
 */
final class FireGate implements FireClaims {

    private final Predicate<TriggerFiredBundle> chosen;

    private final CountDownLatch held = new CountDownLatch(1);

    private final CountDownLatch open = new CountDownLatch(1);

    private volatile List<TriggerFiredBundle> heldBatch = List.of();

    FireGate(Predicate<TriggerFiredBundle> chosen) {
        this.chosen = chosen;
    }

    @Override
    public Claimed claim(Connection connection, List<TriggerFiredBundle> fired) {
        if (this.held.getCount() > 0 && fired.stream().anyMatch(this.chosen)) {
            this.heldBatch = List.copyOf(fired);
            this.held.countDown();
            try {
                this.open.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }
        return null;
    }

    /** The fires of the transaction held, all fired in it. */
    List<TriggerFiredBundle> heldBatch() {
        return this.heldBatch;
    }

    boolean holding() {
        return this.held.getCount() == 0 && this.open.getCount() > 0;
    }

    void open() {
        this.open.countDown();
    }
}
