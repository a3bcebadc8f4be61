package io.dsched.internal.execution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import io.dsched.execution.ExecutionListener;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The admission stage: every policy admits an attempt, or one holds it back and the others let go. */
class AdmissionTests {

    private final List<String> released = new ArrayList<>();

    private final Attempt attempt = Fixtures.attempt(Fixtures.job("report", false), Fixtures.claim("report", 1, 1));

    @Test
    void anAttemptAdmittedByEveryPolicyHoldsTheirPermitsUntilItEnds() {
        Admission admission = new Admission(List.of(admitting("first"), admitting("second")));

        AdmissionDecision decision = admission.admit(this.attempt);

        assertThat(decision.admitted()).isTrue();
        assertThat(this.released).isEmpty();
        decision.permits().release();
        assertThat(this.released).containsExactly("second", "first");
    }

    @Test
    void aPolicyThatHoldsTheAttemptBackReleasesThePermitsOfThoseBeforeItAndAsksNoOneAfter() {
        List<String> asked = new ArrayList<>();
        Ticket hold = Ticket.held(Duration.ofSeconds(3), "over its limit", ExecutionListener.SkipReason.GUARD_HELD);
        Admission admission = new Admission(List.of(
                admitting("first"),
                admitting("second"),
                (attempt) -> {
                    asked.add("third");
                    return hold;
                },
                (attempt) -> {
                    asked.add("fourth");
                    return Ticket.admitted(Permit.NONE);
                }));

        AdmissionDecision decision = admission.admit(this.attempt);

        assertThat(decision.admitted()).isFalse();
        assertThat(decision.hold()).isSameAs(hold);
        assertThat(this.released).containsExactly("second", "first");
        assertThat(asked).containsExactly("third");
    }

    @Test
    void aPolicyThatCannotDecideReleasesThePermitsOfThoseBeforeIt() {
        Admission admission = new Admission(List.of(admitting("first"), (attempt) -> {
            throw new IllegalStateException("database unreachable");
        }));

        assertThatIllegalStateException().isThrownBy(() -> admission.admit(this.attempt));
        assertThat(this.released).containsExactly("first");
    }

    private AdmissionPolicy admitting(String name) {
        return (attempt) -> Ticket.admitted(() -> this.released.add(name));
    }
}
