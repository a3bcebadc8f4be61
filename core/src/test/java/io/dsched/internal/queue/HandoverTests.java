package io.dsched.internal.queue;

import static org.assertj.core.api.Assertions.assertThat;

import io.dsched.execution.ExecutionRecord;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.PriorityBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import org.junit.jupiter.api.Test;

/**
 * The handover of a claim's attempts to the workers: each is held before a worker has it; when the
 * node stops, what no worker started (refused by the stopped workers, or still in their queue) is
 * put back to wait, let go, and leaves the intake, not held by a node that never runs it.
 */
class HandoverTests {

    private static final Instant FIRE = Instant.parse("2031-01-01T00:00:00Z");

    private final Intake intake = new Intake(4, Duration.ofMillis(500));

    private final Set<Long> held = ConcurrentHashMap.newKeySet();

    /** The workers' queue: what they accepted and have not started. */
    private Queue<Runnable> waiting = new ConcurrentLinkedQueue<>();

    private final List<Long> ran = new ArrayList<>();

    private final List<Long> putBack = new ArrayList<>();

    @Test
    void everyAttemptIsHeldBeforeAWorkerHasIt() {
        List<ExecutionRecord> claim = claim(1, 2, 3);
        claim(this.intake, 4, claim.size());

        int handedOver = handover(workersTaking(Integer.MAX_VALUE)).handOver(claim, (attempt) -> {
            assertThat(this.held).as("held while it waits for a worker").contains(attempt.id());
            this.ran.add(attempt.id());
        });

        assertThat(handedOver).isEqualTo(3);
        assertThat(this.held).containsExactlyInAnyOrder(1L, 2L, 3L);
        startAll();
        assertThat(this.ran).containsExactly(1L, 2L, 3L);
        assertThat(this.intake.free())
                .as("three places taken until they finish")
                .isEqualTo(1);
        assertThat(this.putBack).isEmpty();
    }

    @Test
    void whatStoppedWorkersRefuseIsPutBackToWaitLetGoAndFreesItsPlaces() {
        List<ExecutionRecord> claim = claim(1, 2, 3);
        claim(this.intake, 4, claim.size());

        int handedOver = handover(workersTaking(1)).handOver(claim, (attempt) -> this.ran.add(attempt.id()));

        assertThat(handedOver).isEqualTo(1);
        assertThat(this.putBack).as("waiting again, for any node to claim").containsExactly(2L, 3L);
        assertThat(this.held).as("no longer in flight here").containsExactly(1L);
        assertThat(this.intake.free())
                .as("only the attempt a worker took holds a place")
                .isEqualTo(3);
        startAll();
        assertThat(this.ran).containsExactly(1L);
    }

    @Test
    void whatWaitsInTheWorkersQueueWhenTheyStopIsPutBackButNotWhatAWorkerStarted() {
        List<ExecutionRecord> claim = claim(1, 2, 3);
        claim(this.intake, 4, claim.size());
        Handover handover = handover(workersTaking(Integer.MAX_VALUE));
        handover.handOver(claim, (attempt) -> this.ran.add(attempt.id()));
        this.waiting.poll().run();

        assertThat(handover.giveBackWaiting()).isEqualTo(2);

        assertThat(this.putBack).containsExactly(2L, 3L);
        assertThat(this.held).as("the started attempt stays in flight").containsExactly(1L);
        assertThat(this.intake.free()).isEqualTo(3);
        assertThat(this.ran).containsExactly(1L);
    }

    @Test
    void anAttemptThatCannotBePutBackIsLetGoAllTheSame() {
        List<ExecutionRecord> claim = claim(1, 2);
        claim(this.intake, 4, claim.size());
        List<Long> tried = new ArrayList<>();
        Handover handover = new Handover(
                workersTaking(0),
                this.waiting,
                this.intake,
                this.held::add,
                this.held::remove,
                (attempt) -> {
                    tried.add(attempt.id());
                    throw new IllegalStateException("database unreachable");
                },
                (attempt) -> false);

        assertThat(handover.handOver(claim, (attempt) -> this.ran.add(attempt.id())))
                .isZero();
        assertThat(tried)
                .as("no second wait on a database that failed the first")
                .containsExactly(1L);
        assertThat(this.held)
                .as("taken over as a dead node's attempt once this node has left")
                .isEmpty();
        assertThat(this.intake.free()).isEqualTo(4);
    }

    @Test
    void theWorkersTakeTheAttemptsHeldReadyOfLimitedHandlersFirstThenByPriorityThenInTheOrderTheyCame() {
        // the lane's queue: an attempt of a high priority claimed behind a backlog starts first, and an
        // attempt holding a cluster-wide slot before either
        this.waiting = new PriorityBlockingQueue<>(8, Handover.ORDER);
        List<ExecutionRecord> backlog = claim(1, 2, 3);
        ExecutionRecord urgent = claim(4).get(0).queued(10, null);
        ExecutionRecord raised = claim(5).get(0).queued(5, null);
        ExecutionRecord limited =
                ExecutionRecord.claim("mutex", FIRE, "node-1", FIRE).withId(6);
        claim(this.intake, 8, 6);
        Handover handover = handover(workersTaking(Integer.MAX_VALUE));

        handover.handOver(backlog, (attempt) -> this.ran.add(attempt.id()));
        handover.handOver(List.of(raised, urgent, limited), (attempt) -> this.ran.add(attempt.id()));
        startAll();

        assertThat(this.ran).containsExactly(6L, 4L, 5L, 1L, 2L, 3L);
    }

    private Handover handover(Executor workers) {
        return new Handover(
                workers,
                this.waiting,
                this.intake,
                this.held::add,
                this.held::remove,
                (attempt) -> this.putBack.add(attempt.id()),
                (attempt) -> attempt.jobName().equals("mutex"));
    }

    /** Workers that accept {@code count} attempts into their queue, then refuse, as a pool shut down does. */
    private Executor workersTaking(int count) {
        int[] accepted = {0};
        return (task) -> {
            if (accepted[0] >= count) {
                throw new RejectedExecutionException("shut down");
            }
            accepted[0]++;
            this.waiting.add(task);
        };
    }

    private void startAll() {
        Runnable task;
        while ((task = this.waiting.poll()) != null) {
            task.run();
        }
    }

    private static List<ExecutionRecord> claim(long... ids) {
        List<ExecutionRecord> attempts = new ArrayList<>();
        for (long id : ids) {
            attempts.add(ExecutionRecord.claim("job", FIRE.plusSeconds(id), "node-1", FIRE)
                    .withId(id));
        }
        return attempts;
    }

    /** A claim of up to {@code asked} attempts that got {@code got}, as the queue makes it. */
    private static void claim(Intake intake, int asked, int got) {
        intake.claiming(asked);
        intake.claimed(asked, got);
    }
}
