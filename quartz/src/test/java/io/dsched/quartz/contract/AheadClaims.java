package io.dsched.quartz.contract;

import io.dsched.quartz.FireClaims;
import java.sql.Connection;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.quartz.spi.TriggerFiredBundle;

/**
 * Records each fire claimed in the transaction that fires it, with the moment of the claim, and
 * each fire left to the application; inside the first claim, it lets the test do something.
 */
final class AheadClaims implements FireClaims {

    /** A fire claimed: its trigger, the time it was scheduled for, and when it was claimed. */
    record Claim(String trigger, Instant scheduledAt, Instant claimedAt) {}

    private final Runnable first;

    private final AtomicBoolean seen = new AtomicBoolean();

    private final List<Claim> claims = new CopyOnWriteArrayList<>();

    private final List<Claim> left = new CopyOnWriteArrayList<>();

    AheadClaims(Runnable first) {
        this.first = first;
    }

    AheadClaims() {
        this(() -> {});
    }

    @Override
    public Claimed claim(Connection connection, List<TriggerFiredBundle> fired) {
        Instant now = Instant.now();
        for (TriggerFiredBundle fire : fired) {
            this.claims.add(claimOf(fire, now));
        }
        if (this.seen.compareAndSet(false, true)) {
            this.first.run();
        }
        return null;
    }

    @Override
    public void left(TriggerFiredBundle fire) {
        this.left.add(claimOf(fire, Instant.now()));
    }

    @Override
    public boolean takesLeftFires() {
        return true;
    }

    private static Claim claimOf(TriggerFiredBundle fire, Instant at) {
        return new Claim(
                fire.getTrigger().getKey().getName(),
                fire.getScheduledFireTime().toInstant(),
                at);
    }

    List<Claim> claims() {
        return List.copyOf(this.claims);
    }

    List<Claim> left() {
        return List.copyOf(this.left);
    }
}
