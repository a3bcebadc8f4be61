package io.dsched.internal.execution;

import static org.assertj.core.api.Assertions.assertThat;

import io.dsched.execution.ExecutionListener;
import java.time.Clock;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.Optional;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.Test;

/** The overlap guard as an admission policy, on a lock provider in memory. */
class GuardAdmissionTests {

    private final Clock clock = Clock.fixed(Fixtures.FIRE, ZoneOffset.UTC);

    private final InMemoryLocks locks = new InMemoryLocks();

    private final GuardAdmission admission = new GuardAdmission(
            new JobGuard(this.locks, null, Duration.ofMinutes(10), Duration.ZERO, this.clock, "dsched"), () -> {});

    private final JobTarget guarded = Fixtures.job("report", true);

    @Test
    void aJobWithoutGuardIsAdmittedWithoutALock() {
        Ticket ticket =
                this.admission.admit(Fixtures.attempt(Fixtures.job("free", false), Fixtures.claim("free", 1, 1)));

        assertThat(ticket.permit()).isSameAs(Permit.NONE);
        assertThat(this.locks.isHeld("free")).isFalse();
    }

    @Test
    void aGuardedJobRunsWithItsLockAndGivesItBackWhenItEnds() {
        Ticket ticket = this.admission.admit(Fixtures.attempt(this.guarded, Fixtures.claim("report", 1, 1)));

        assertThat(ticket.isAdmitted()).isTrue();
        assertThat(this.locks.isHeld("report")).isTrue();
        ticket.permit().release();
        assertThat(this.locks.isHeld("report")).isFalse();
        // released once: a second release gives back nothing another run took meanwhile
        Optional<SimpleLock> next = this.locks.lock(configuration("report"));
        ticket.permit().release();
        assertThat(next).isPresent();
        assertThat(this.locks.isHeld("report")).isTrue();
    }

    @Test
    void whileAnotherRunHoldsTheLockTheAttemptWaitsASecondAndIsNeverSkipped() {
        assertThat(this.locks.lock(configuration("report"))).isPresent();

        Ticket ticket = this.admission.admit(Fixtures.attempt(this.guarded, Fixtures.claim("report", 1, 1)));

        assertThat(ticket.isAdmitted()).isFalse();
        assertThat(ticket.delay()).isEqualTo(Duration.ofSeconds(1));
        assertThat(ticket.reason()).isEqualTo("waiting for another run of the job");
        assertThat(ticket.reported()).isEqualTo(ExecutionListener.SkipReason.GUARD_HELD);
    }

    @Test
    void anAttemptClaimedWithItsLockRunsWithThatLockWithoutTakingItAgain() {
        SimpleLock taken = this.locks.lock(configuration("report")).orElseThrow();

        Ticket ticket = this.admission.admit(new Attempt(Fixtures.claim("report", 1, 1), this.guarded, taken));

        assertThat(ticket.isAdmitted()).isTrue();
        ticket.permit().release();
        assertThat(this.locks.isHeld("report")).isFalse();
    }

    private LockConfiguration configuration(String name) {
        return new LockConfiguration(this.clock.instant(), name, Duration.ofMinutes(10), Duration.ZERO);
    }
}
