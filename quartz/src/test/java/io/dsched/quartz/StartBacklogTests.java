package io.dsched.quartz;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class StartBacklogTests {

    @Test
    void aWriterGoesOnAtOnceWhenNoFireWaitsToStart() throws InterruptedException {
        StartBacklog backlog = new StartBacklog(Duration.ofHours(1));
        backlog.due();
        backlog.started();

        long before = System.nanoTime();
        backlog.awaitStarts();

        assertThat(Duration.ofNanos(System.nanoTime() - before)).isLessThan(Duration.ofSeconds(5));
        assertThat(backlog.waiting()).isZero();
    }

    @Test
    void aWriterWaitsWhileFiresAreDueAndGoesOnWhenTheLastOfThemStarts() {
        StartBacklog backlog = new StartBacklog(Duration.ofHours(1));
        backlog.due();
        backlog.due();
        CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> awaitStarts(backlog));

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
        CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> awaitStarts(backlog));

        writer.orTimeout(10, TimeUnit.SECONDS).join();
        assertThat(Duration.ofNanos(System.nanoTime() - before))
                .isGreaterThanOrEqualTo(Duration.ofMillis(400))
                .isLessThan(Duration.ofSeconds(5));
        assertThat(backlog.waiting()).isEqualTo(1);
    }

    @Test
    void noBacklogNeverHoldsAWriter() throws InterruptedException {
        StartBacklog.NONE.due();
        try {
            long before = System.nanoTime();
            StartBacklog.NONE.awaitStarts();
            assertThat(Duration.ofNanos(System.nanoTime() - before)).isLessThan(Duration.ofSeconds(1));
        } finally {
            StartBacklog.NONE.started();
        }
    }

    @Test
    void aNegativeBoundIsRefused() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new StartBacklog(Duration.ofMillis(-1)))
                .withMessageContaining("negative");
    }

    private static void awaitStarts(StartBacklog backlog) {
        try {
            backlog.awaitStarts();
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }
}
