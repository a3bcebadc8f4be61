package io.dsched.internal.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.dsched.internal.store.TargetLimits;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A node-local rate's bucket, by a clock the test moves. */
class NodeBucketTests {

    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);

    private final NodeBucket bucket =
            new NodeBucket(new TargetLimits.PerPeriod(20, Duration.ofSeconds(1)), this.nanos::get);

    @Test
    void aNewBucketIsFullAndEachClaimTakesItsTokens() {
        assertThat(this.bucket.available()).isEqualTo(20);
        this.bucket.take(15);
        assertThat(this.bucket.available()).isEqualTo(5);
        this.bucket.take(5);
        assertThat(this.bucket.available()).isZero();
    }

    @Test
    void itRefillsEvenlyOverThePeriodUpToItsPermits() {
        this.bucket.take(20);
        this.nanos.addAndGet(Duration.ofMillis(249).toNanos());
        assertThat(this.bucket.available()).as("4.98 tokens").isEqualTo(4);
        this.nanos.addAndGet(Duration.ofMillis(1).toNanos());
        assertThat(this.bucket.available()).isEqualTo(5);
        this.nanos.addAndGet(Duration.ofSeconds(10).toNanos());
        assertThat(this.bucket.available()).isEqualTo(20);
    }
}
