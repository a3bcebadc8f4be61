package io.dsched.quartz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

class StartBacklogTests {

    @Test
    void aWriterGoesOnAtOnceWhenNoFireWaitsToStart() {
        StartBacklog backlog = new StartBacklog(Duration.ofHours(1));
        backlog.due();
        backlog.started();

        CompletableFuture.runAsync(() -> awaitStarts(backlog, () -> false), StartBacklogTests::ownThread)
                .orTimeout(10, TimeUnit.SECONDS)
                .join();
        assertThat(backlog.waiting()).isZero();
    }

    @Test
    void aWriterGoesOnOnceItHasAReasonToWhileFiresAreStillDue() {
        StartBacklog backlog = new StartBacklog(Duration.ofHours(1));
        backlog.due();
        AtomicBoolean goOn = new AtomicBoolean();
        CompletableFuture<Void> writer =
                CompletableFuture.runAsync(() -> awaitStarts(backlog, goOn::get), StartBacklogTests::ownThread);
        await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(5)).until(() -> !writer.isDone());

        goOn.set(true);

        writer.orTimeout(10, TimeUnit.SECONDS).join();
        assertThat(backlog.waiting()).isEqualTo(1);
    }

    @Test
    void aWriterWaitsWhileFiresAreDueAndGoesOnWhenTheLastOfThemStarts() {
        StartBacklog backlog = new StartBacklog(Duration.ofHours(1));
        backlog.due();
        backlog.due();
        CompletableFuture<Void> writer =
                CompletableFuture.runAsync(() -> awaitStarts(backlog, () -> false), StartBacklogTests::ownThread);

        backlog.started();
        await().during(Duration.ofMillis(300)).atMost(Duration.ofSeconds(5)).until(() -> !writer.isDone());

        backlog.started();
        await().atMost(Duration.ofSeconds(5)).until(writer::isDone);
        assertThat(backlog.waiting()).isZero();
    }

    @Test
    void aWriterWaitsNoLongerThanTheBoundForFiresThatDoNotStart() {
        StartBacklog backlog = new StartBacklog(Duration.ofMillis(400));
        backlog.due();

        long before = System.nanoTime();
        CompletableFuture<Void> writer =
                CompletableFuture.runAsync(() -> awaitStarts(backlog, () -> false), StartBacklogTests::ownThread);

        writer.orTimeout(10, TimeUnit.SECONDS).join();
        assertThat(Duration.ofNanos(System.nanoTime() - before))
                .isGreaterThanOrEqualTo(Duration.ofMillis(400))
                .isLessThan(Duration.ofSeconds(5));
        assertThat(backlog.waiting()).isEqualTo(1);
    }

    @Test
    void aBacklogOfNoBoundNeitherCountsNorHoldsAWriter() {
        StartBacklog none = new StartBacklog(Duration.ZERO);
        none.due();

        assertThat(none.waiting()).isZero();
        CompletableFuture.runAsync(() -> awaitStarts(none, () -> false), StartBacklogTests::ownThread)
                .orTimeout(10, TimeUnit.SECONDS)
                .join();
    }

    @Test
    void aNegativeBoundIsRefused() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new StartBacklog(Duration.ofMillis(-1)))
                .withMessageContaining("negative");
    }

    /** A writer on a thread of its own, not one of a shared pool that a loaded machine may starve. */
    private static void ownThread(Runnable writer) {
        Thread thread = new Thread(writer, "test-writer");
        // one left waiting by a failed test must not keep the JVM alive
        thread.setDaemon(true);
        thread.start();
    }

    private static void awaitStarts(StartBacklog backlog, BooleanSupplier goOn) {
        try {
            backlog.awaitStarts(goOn);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }
}
