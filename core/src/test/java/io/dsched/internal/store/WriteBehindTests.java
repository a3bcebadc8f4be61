package io.dsched.internal.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.dsched.quartz.StartBacklog;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The grouping of successes off the worker: what workers hand over while a group is being written
 * goes together into the next group, no group is larger than the maximum, and each worker learns
 * the answer for its own outcome. The writer is held inside a write by a latch, so the order of
 * hand-over and write is the test's, not the scheduler's.
 */
class WriteBehindTests {

    private static final int MAX_BATCH = 4;

    private final List<List<Integer>> batches = Collections.synchronizedList(new ArrayList<>());

    private final CountDownLatch firstWriteEntered = new CountDownLatch(1);

    private final CountDownLatch firstWriteMayEnd = new CountDownLatch(1);

    private volatile RuntimeException failFirst;

    private final StartBacklog backlog = new StartBacklog(Duration.ofHours(1));

    private final WriteBehind<Integer> writer =
            new WriteBehind<>("test-outcomes", MAX_BATCH, 64, this.backlog, this::write);

    @AfterEach
    void close() {
        this.firstWriteMayEnd.countDown();
        this.writer.close();
    }

    /** Answers for each item whether it is even; the first write waits for the test. */
    private boolean[] write(List<Integer> batch) {
        boolean first = this.batches.isEmpty();
        this.batches.add(List.copyOf(batch));
        if (first) {
            this.firstWriteEntered.countDown();
            await(this.firstWriteMayEnd);
            if (this.failFirst != null) {
                throw this.failFirst;
            }
        }
        boolean[] written = new boolean[batch.size()];
        for (int i = 0; i < batch.size(); i++) {
            written[i] = batch.get(i) % 2 == 0;
        }
        return written;
    }

    @Test
    void successesHandedOverDuringAWriteAreWrittenTogetherInTheNextGroup() throws Exception {
        CompletableFuture<Boolean> first = this.writer.submit(0);
        await(this.firstWriteEntered);
        List<CompletableFuture<Boolean>> during =
                IntStream.of(2, 4, 6).mapToObj(this.writer::submit).toList();
        this.firstWriteMayEnd.countDown();
        assertThat(first.get(10, TimeUnit.SECONDS)).isTrue();
        for (CompletableFuture<Boolean> written : during) {
            assertThat(written.get(10, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(this.batches).containsExactly(List.of(0), List.of(2, 4, 6));
    }

    @Test
    void aGroupWaitsForTheFiresDueToStartAndTakesWhatCameMeanwhile() throws Exception {
        this.firstWriteMayEnd.countDown();
        this.backlog.due();
        CompletableFuture<Boolean> first = this.writer.submit(0);
        CompletableFuture<Boolean> second = this.writer.submit(2);
        Awaitility.await()
                .during(Duration.ofMillis(300))
                .atMost(Duration.ofSeconds(5))
                .until(this.batches::isEmpty);

        this.backlog.started();

        assertThat(first.get(10, TimeUnit.SECONDS)).isTrue();
        assertThat(second.get(10, TimeUnit.SECONDS)).isTrue();
        assertThat(this.batches).containsExactly(List.of(0, 2));
    }

    @Test
    void aCallerAboutToBlockForAWriteHasTheGroupWrittenWithoutWaitingForTheStarts() throws Exception {
        this.firstWriteMayEnd.countDown();
        this.backlog.due();
        CompletableFuture<Boolean> written = this.writer.submit(0);
        Awaitility.await()
                .during(Duration.ofMillis(200))
                .atMost(Duration.ofSeconds(5))
                .until(this.batches::isEmpty);

        this.writer.hurry();

        assertThat(written.get(10, TimeUnit.SECONDS)).isTrue();
        assertThat(this.backlog.waiting()).isEqualTo(1);
    }

    @Test
    void aHurryForWhatWasWrittenAlreadyDoesNotCarryOverToALaterGroup() throws Exception {
        this.firstWriteMayEnd.countDown();
        this.writer.submit(0).get(10, TimeUnit.SECONDS);
        this.writer.hurry();
        this.backlog.due();

        CompletableFuture<Boolean> later = this.writer.submit(2);

        Awaitility.await()
                .during(Duration.ofMillis(200))
                .atMost(Duration.ofSeconds(5))
                .until(() -> this.batches.size() == 1);
        this.backlog.started();
        assertThat(later.get(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void moreHandedOverThanTwoGroupsIsWrittenWithoutWaitingForTheStarts() throws Exception {
        this.firstWriteMayEnd.countDown();
        this.backlog.due();
        List<CompletableFuture<Boolean>> handedOver = IntStream.rangeClosed(0, 2 * MAX_BATCH)
                .mapToObj(this.writer::submit)
                .toList();

        // the first group goes; what is left is less than two groups, and waits again
        handedOver.get(0).get(10, TimeUnit.SECONDS);
        assertThat(this.batches.get(0)).containsExactly(0, 1, 2, 3);
        Awaitility.await()
                .during(Duration.ofMillis(200))
                .atMost(Duration.ofSeconds(5))
                .until(() -> this.batches.size() == 1);
        this.backlog.started();
        CompletableFuture.allOf(handedOver.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
    }

    @Test
    void aCloseWritesWhatWaitsForTheStartsAtOnce() throws Exception {
        this.firstWriteMayEnd.countDown();
        this.backlog.due();
        CompletableFuture<Boolean> written = this.writer.submit(0);

        Thread closing = new Thread(this.writer::close);
        closing.start();
        closing.join(TimeUnit.SECONDS.toMillis(10));

        assertThat(closing.isAlive()).isFalse();
        assertThat(written).isCompletedWithValue(true);
    }

    @Test
    void noGroupIsLargerThanTheMaximumAndNothingHandedOverIsLost() throws Exception {
        this.writer.submit(0);
        await(this.firstWriteEntered);
        List<CompletableFuture<Boolean>> during = IntStream.rangeClosed(1, 2 * MAX_BATCH + 1)
                .mapToObj(this.writer::submit)
                .toList();
        this.firstWriteMayEnd.countDown();
        CompletableFuture.allOf(during.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
        assertThat(this.batches).containsExactly(List.of(0), List.of(1, 2, 3, 4), List.of(5, 6, 7, 8), List.of(9));
    }

    @Test
    void eachWorkerLearnsWhetherItsOwnOutcomeWasWritten() throws Exception {
        this.writer.submit(0);
        await(this.firstWriteEntered);
        CompletableFuture<Boolean> kept = this.writer.submit(2);
        CompletableFuture<Boolean> lost = this.writer.submit(3);
        CompletableFuture<Boolean> alsoKept = this.writer.submit(4);
        this.firstWriteMayEnd.countDown();
        assertThat(kept.get(10, TimeUnit.SECONDS)).isTrue();
        assertThat(lost.get(10, TimeUnit.SECONDS))
                .as("no longer running on its node")
                .isFalse();
        assertThat(alsoKept.get(10, TimeUnit.SECONDS)).isTrue();
        assertThat(this.batches).hasSize(2);
    }

    @Test
    void aGroupThatCannotBeWrittenFailsItsOwnOutcomesAndNotThoseOfTheNextGroup() throws Exception {
        this.failFirst = new IllegalStateException("database unreachable");
        CompletableFuture<Boolean> failed = this.writer.submit(0);
        await(this.firstWriteEntered);
        CompletableFuture<Boolean> next = this.writer.submit(2);
        CompletableFuture<Boolean> alsoNext = this.writer.submit(4);
        this.firstWriteMayEnd.countDown();
        assertThatThrownBy(() -> failed.get(10, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .hasRootCauseMessage("database unreachable");
        assertThat(next.get(10, TimeUnit.SECONDS)).isTrue();
        assertThat(alsoNext.get(10, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void closingWritesWhatWasHandedOverAndRefusesMore() throws Exception {
        this.writer.submit(0);
        await(this.firstWriteEntered);
        CompletableFuture<Boolean> waiting = this.writer.submit(2);
        Thread closing = new Thread(this.writer::close);
        closing.start();
        // closed while the writer is inside its write: it must still write what is waiting
        Awaitility.await().atMost(Duration.ofSeconds(10)).until(() -> closing.getState() == Thread.State.TIMED_WAITING);
        this.firstWriteMayEnd.countDown();
        closing.join(TimeUnit.SECONDS.toMillis(10));
        assertThat(closing.isAlive()).isFalse();
        assertThat(waiting).isCompletedWithValue(true);
        assertThatIllegalStateException()
                .isThrownBy(() -> this.writer.submit(4))
                .withMessageContaining("closed");
    }

    private static void await(CountDownLatch latch) {
        try {
            assertThat(latch.await(10, TimeUnit.SECONDS))
                    .as("latch within 10 s")
                    .isTrue();
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }
}
