package io.dsched.internal.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.dsched.execution.ExecutionRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.junit.jupiter.api.Test;

/**
 * The handover of a claim's attempts to the workers: each is held before a worker has it, and what
 * workers that have stopped refuse is put back to wait, let go, and leaves the intake, not held by a
 * node that never runs it.
 */
class HandoverTests {

    private static final Instant FIRE = Instant.parse("2031-01-01T00:00:00Z");

    private final Intake intake = new Intake(4, Duration.ofMillis(500));

    private final Set<Long> held = ConcurrentHashMap.newKeySet();

    private final List<Runnable> accepted = new ArrayList<>();

    private final List<Long> ran = new ArrayList<>();

    private final List<Long> putBack = new ArrayList<>();

    @Test
    void everyAttemptIsHeldBeforeAWorkerHasIt() {
        List<ExecutionRecord> claim = claim(1, 2, 3);
        this.intake.claimed(4, claim.size());

        int handedOver = handover(workersTaking(Integer.MAX_VALUE)).handOver(claim, (attempt) -> {
            assertThat(this.held).as("held while it waits for a worker").contains(attempt.id());
            this.ran.add(attempt.id());
        });

        assertThat(handedOver).isEqualTo(3);
        assertThat(this.held).containsExactlyInAnyOrder(1L, 2L, 3L);
        this.accepted.forEach(Runnable::run);
        assertThat(this.ran).containsExactly(1L, 2L, 3L);
        assertThat(this.intake.free())
                .as("three places taken until they finish")
                .isEqualTo(1);
    }

    @Test
    void whatStoppedWorkersRefuseIsPutBackToWaitLetGoAndFreesItsPlaces() {
        List<ExecutionRecord> claim = claim(1, 2, 3);
        this.intake.claimed(4, claim.size());

        int handedOver = handover(workersTaking(1)).handOver(claim, (attempt) -> this.ran.add(attempt.id()));

        assertThat(handedOver).isEqualTo(1);
        assertThat(this.putBack).as("waiting again, for any node to claim").containsExactly(2L, 3L);
        assertThat(this.held)
                .as("the sweep of stale attempts may take back what no worker runs")
                .containsExactly(1L);
        assertThat(this.intake.free())
                .as("only the attempt a worker took holds a place")
                .isEqualTo(3);
        this.accepted.forEach(Runnable::run);
        assertThat(this.ran).containsExactly(1L);
    }

    @Test
    void anAttemptThatCannotBePutBackIsLetGoAllTheSame() {
        List<ExecutionRecord> claim = claim(1, 2);
        this.intake.claimed(4, claim.size());
        Handover handover =
                new Handover(workersTaking(0), this.intake, this.held::add, this.held::remove, (attempt) -> {
                    throw new IllegalStateException("database unreachable");
                });

        assertThat(handover.handOver(claim, (attempt) -> this.ran.add(attempt.id())))
                .isZero();
        assertThat(this.held)
                .as("taken over as a dead node's attempt once this node has left")
                .isEmpty();
        assertThat(this.intake.free()).isEqualTo(4);
    }

    private Handover handover(Executor workers) {
        return new Handover(
                workers, this.intake, this.held::add, this.held::remove, (attempt) -> this.putBack.add(attempt.id()));
    }

    /** Workers that take {@code count} attempts, then refuse, as a pool that was shut down does. */
    private Executor workersTaking(int count) {
        return (task) -> {
            if (this.accepted.size() >= count) {
                throw new RejectedExecutionException("shut down");
            }
            this.accepted.add(task);
        };
    }

    private static List<ExecutionRecord> claim(long... ids) {
        List<ExecutionRecord> attempts = new ArrayList<>();
        for (long id : ids) {
            attempts.add(ExecutionRecord.claim("job", FIRE.plusSeconds(id), "node-1", FIRE)
                    .withId(id));
        }
        return attempts;
    }
}
