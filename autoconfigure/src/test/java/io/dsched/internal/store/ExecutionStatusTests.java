package io.dsched.internal.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import io.dsched.execution.ExecutionStatus;
import org.junit.jupiter.api.Test;

class ExecutionStatusTests {

    @Test
    void aRunningAttemptEndsInOneOfItsOutcomes() {
        assertThat(ExecutionStatus.RUNNING.canMoveTo(ExecutionStatus.SUCCEEDED)).isTrue();
        assertThat(ExecutionStatus.RUNNING.canMoveTo(ExecutionStatus.FAILED)).isTrue();
        assertThat(ExecutionStatus.RUNNING.canMoveTo(ExecutionStatus.SKIPPED)).isTrue();
        assertThat(ExecutionStatus.RUNNING.canMoveTo(ExecutionStatus.TIMED_OUT)).isTrue();
        assertThat(ExecutionStatus.RUNNING.canMoveTo(ExecutionStatus.DEAD_LETTERED))
                .isTrue();
        assertThat(ExecutionStatus.FAILED.canMoveTo(ExecutionStatus.DEAD_LETTERED))
                .isTrue();
        assertThat(ExecutionStatus.SCHEDULED.canMoveTo(ExecutionStatus.RUNNING)).isTrue();
        assertThat(ExecutionStatus.RETRY_SCHEDULED.canMoveTo(ExecutionStatus.RUNNING))
                .isTrue();
    }

    @Test
    void aClaimedAttemptWhoseGuardIsHeldGoesBackToWait() {
        assertThat(ExecutionStatus.RUNNING.canMoveTo(ExecutionStatus.SCHEDULED)).isTrue();
        assertThat(ExecutionStatus.RUNNING.canMoveTo(ExecutionStatus.RETRY_SCHEDULED))
                .isTrue();
    }

    @Test
    void anIllegalTransitionFailsLoudly() {
        assertThatIllegalStateException()
                .isThrownBy(() -> ExecutionStatus.SUCCEEDED.checkMoveTo(ExecutionStatus.RUNNING))
                .withMessage("Illegal execution state transition SUCCEEDED -> RUNNING");
        assertThatIllegalStateException()
                .isThrownBy(() -> ExecutionStatus.SCHEDULED.checkMoveTo(ExecutionStatus.SUCCEEDED));
        assertThatIllegalStateException()
                .isThrownBy(() -> ExecutionStatus.DEAD_LETTERED.checkMoveTo(ExecutionStatus.RETRY_SCHEDULED));
    }

    @Test
    void successDeadLettersSkipsAndCancellationsAreFinal() {
        assertThat(ExecutionStatus.values())
                .filteredOn(ExecutionStatus::isTerminal)
                .containsExactlyInAnyOrder(
                        ExecutionStatus.SUCCEEDED,
                        ExecutionStatus.DEAD_LETTERED,
                        ExecutionStatus.SKIPPED,
                        ExecutionStatus.CANCELLED);
    }
}
