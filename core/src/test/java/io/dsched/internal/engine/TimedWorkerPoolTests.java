package io.dsched.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dsched.quartz.StartBacklog;
import io.dsched.quartz.StoreHooks;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The pool that starts each fire at its time: never before it, however early the fire is handed
 * over; no more at once than its threads; room for no more than its capacity, and none while every
 * worker is busy; and, as it shuts down, fires still waiting for their time given up at once.
 */
class TimedWorkerPoolTests {

    private final TimedWorkerPool pool = new TimedWorkerPool();

    private final CountDownLatch hold = new CountDownLatch(1);

    @AfterEach
    void shutDown() {
        this.hold.countDown();
        this.pool.shutdown(true);
    }

    @Test
    void aFireHandedOverBeforeItsTimeStartsAtItsTimeAndOneDueStartsAtOnce() {
        start(2, 2);
        long due = System.currentTimeMillis() + 300;
        List<Long> started = new CopyOnWriteArrayList<>();
        List<Long> handedOver = new CopyOnWriteArrayList<>();
        handOver(due, () -> handedOver.add(System.currentTimeMillis()), () -> started.add(System.currentTimeMillis()));
        long late = System.currentTimeMillis() - 1000;
        List<Long> startedLate = new CopyOnWriteArrayList<>();
        handOver(late, () -> {}, () -> startedLate.add(System.currentTimeMillis()));

        await().atMost(Duration.ofSeconds(5)).until(() -> started.size() == 1 && startedLate.size() == 1);
        assertThat(started.get(0)).isGreaterThanOrEqualTo(due);
        assertThat(handedOver.get(0)).as("handed to its worker at its time too").isGreaterThanOrEqualTo(due);
        assertThat(startedLate.get(0)).as("a late fire waits for nothing").isLessThan(due);
    }

    @Test
    void noMoreRunAtOnceThanItsThreadsAndItTakesMoreOnlyWhileAWorkerIsFree() throws Exception {
        start(2, 10);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        CountDownLatch release = new CountDownLatch(1);
        for (int i = 0; i < 4; i++) {
            handOver(0, () -> {}, () -> {
                most.accumulateAndGet(running.incrementAndGet(), Math::max);
                awaitQuietly(release);
                running.decrementAndGet();
            });
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> running.get() == 2);
        // both workers busy: Quartz's thread waits before it looks for more, whatever the room
        Thread looking = new Thread(this.pool::blockForAvailableThreads);
        looking.start();
        looking.join(300);
        assertThat(looking.isAlive()).isTrue();
        release.countDown();
        looking.join(5000);
        assertThat(looking.isAlive()).isFalse();
        await().atMost(Duration.ofSeconds(5)).until(() -> running.get() == 0);
        assertThat(most.get()).as("four fires, two threads").isEqualTo(2);
        await().atMost(Duration.ofSeconds(5)).until(() -> this.pool.blockForAvailableThreads() == 10);
    }

    @Test
    void fullWithFiresWaitingForTheirTimeItHasNoRoomUntilOneEnds() {
        start(2, 3);
        long due = System.currentTimeMillis() + 400;
        AtomicInteger ran = new AtomicInteger();
        for (int i = 0; i < 3; i++) {
            handOver(due, () -> {}, ran::incrementAndGet);
        }
        AtomicInteger room = new AtomicInteger(-1);
        AtomicInteger ranBefore = new AtomicInteger(-1);
        Thread looking = new Thread(() -> {
            room.set(this.pool.blockForAvailableThreads());
            ranBefore.set(ran.get());
        });
        looking.start();
        await().atMost(Duration.ofSeconds(5)).until(() -> room.get() >= 0);
        assertThat(ranBefore.get()).as("fires ended before there was room").isPositive();
        assertThat(room.get()).isBetween(1, 3);
        assertThat(System.currentTimeMillis()).isGreaterThanOrEqualTo(due);
        await().atMost(Duration.ofSeconds(5)).until(() -> ran.get() == 3);
    }

    @Test
    void firesWaitingForTheirTimeAreGivenUpAtOnceAsItShutsDown() {
        start(2, 10);
        long due = System.currentTimeMillis() + TimeUnit.MINUTES.toMillis(10);
        List<Boolean> givenUp = new CopyOnWriteArrayList<>();
        AtomicInteger handedOver = new AtomicInteger();
        for (int i = 0; i < 3; i++) {
            handOver(due, handedOver::incrementAndGet, () -> givenUp.add(TimedWorkerPool.givenUp()));
        }
        this.pool.shutdown(true);
        assertThat(givenUp).containsExactly(true, true, true);
        assertThat(handedOver).hasValue(3);
        // Quartz's thread may still hand out a fire it had taken: it is given up as well
        List<Boolean> last = new CopyOnWriteArrayList<>();
        handOver(0, () -> {}, () -> last.add(TimedWorkerPool.givenUp()));
        await().atMost(Duration.ofSeconds(5)).until(() -> last.size() == 1);
        assertThat(last).containsExactly(true);
    }

    @Test
    void firesDueButWaitingForABusyWorkerAreGivenUpAsItShutsDownWithoutWaitingForJobs() {
        start(1, 10);
        CountDownLatch running = new CountDownLatch(1);
        handOver(0, () -> {}, () -> {
            running.countDown();
            awaitQuietly(this.hold);
        });
        awaitQuietly(running);
        List<Boolean> givenUp = new CopyOnWriteArrayList<>();
        for (int i = 0; i < 2; i++) {
            handOver(0, () -> {}, () -> givenUp.add(TimedWorkerPool.givenUp()));
        }
        // the only worker runs a job that outlasts the stop
        this.pool.shutdown(false);
        await().atMost(Duration.ofSeconds(5)).until(() -> givenUp.size() == 2);
        assertThat(givenUp).containsExactly(true, true);
    }

    @Test
    void itCountsTheFiresWhoseTimeHasComeUntilAWorkerStartsThem() throws Exception {
        StartBacklog backlog = oneWorkerCounting();
        CountDownLatch release = new CountDownLatch(1);
        occupyTheWorker(release);
        // far enough ahead that it is not due yet when the count is first read, on a loaded machine too
        long due = System.currentTimeMillis() + 3000;
        handOver(due, () -> {}, () -> {});
        handOver(0, () -> {}, () -> {});

        assertThat(backlog.waiting())
                .as("one fire due and waiting for the busy worker; the other's time has not come")
                .isEqualTo(1);
        await().atMost(Duration.ofSeconds(10)).until(() -> backlog.waiting() == 2);
        assertThat(System.currentTimeMillis()).isGreaterThanOrEqualTo(due);

        release.countDown();
        await().atMost(Duration.ofSeconds(5)).until(() -> backlog.waiting() == 0);
    }

    @Test
    void firesDueBehindABusyWorkerAreCountedOffWhenTheShutdownGivesThemUp() throws Exception {
        StartBacklog backlog = oneWorkerCounting();
        CountDownLatch release = new CountDownLatch(1);
        occupyTheWorker(release);
        handOver(0, () -> {}, () -> {});
        handOver(0, () -> {}, () -> {
            throw new IllegalStateException("a fire that fails as it is given up");
        });
        handOver(0, () -> {}, () -> {});
        assertThat(backlog.waiting()).isEqualTo(3);

        try {
            this.pool.shutdown(false);

            await().atMost(Duration.ofSeconds(5)).until(() -> backlog.waiting() == 0);
        } finally {
            release.countDown();
        }
    }

    @Test
    void aWorkerGoesOnWhenQuartzCannotRecordTheEndOfAFire() {
        start(1, 1);
        List<Thread> workers = new CopyOnWriteArrayList<>();
        List<Throwable> uncaught = new CopyOnWriteArrayList<>();
        Thread.UncaughtExceptionHandler before = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((thread, ex) -> {
            // the workers of this test's fires; any other thread's goes where it went before
            if (workers.contains(thread)) {
                uncaught.add(ex);
            } else if (before != null) {
                before.uncaughtException(thread, ex);
            }
        });
        try {
            // what Quartz's shell throws when its store shuts down while it records the fire's end
            handOver(0, () -> {}, () -> {
                workers.add(Thread.currentThread());
                throw new IllegalStateException("JobStore is shutdown - aborting retry");
            });
            await().dontCatchUncaughtExceptions()
                    .atMost(Duration.ofSeconds(5))
                    .until(() -> this.pool.blockForAvailableThreads() == 1);
            handOver(0, () -> {}, () -> workers.add(Thread.currentThread()));
            await().dontCatchUncaughtExceptions().atMost(Duration.ofSeconds(5)).until(() -> workers.size() == 2);
            assertThat(workers.get(1)).as("the worker that ran the next fire").isSameAs(workers.get(0));
            assertThat(uncaught).isEmpty();
        } finally {
            Thread.setDefaultUncaughtExceptionHandler(before);
        }
    }

    @Test
    void aGroupWithWorkersOfItsOwnRunsOnThemAndWhenTheyAreAllBusyItsFiresAreSpilledWhileOtherGroupsStartAtOnce()
            throws Exception {
        this.pool.setGroupThreads("reports=2");
        start(1, 10);
        assertThat(this.pool.getPoolSize()).isEqualTo(3);
        CountDownLatch release = new CountDownLatch(1);
        List<String> reportThreads = new CopyOnWriteArrayList<>();
        for (int i = 0; i < 2; i++) {
            handOver(0, "reports", () -> {
                reportThreads.add(Thread.currentThread().getName());
                awaitQuietly(release);
            });
        }
        await().atMost(Duration.ofSeconds(5)).until(() -> reportThreads.size() == 2);
        assertThat(reportThreads).allMatch((name) -> name.startsWith("pool-test-reports-"));

        // the group's workers are busy: its next fire does not wait behind them, it is spilled at once
        List<String> spilled = new CopyOnWriteArrayList<>();
        handOver(
                0,
                "reports",
                () -> spilled.add(
                        TimedWorkerPool.spilled() + " " + Thread.currentThread().getName()));
        await().atMost(Duration.ofSeconds(5)).until(() -> spilled.size() == 1);
        assertThat(spilled).containsExactly("true pool-test-spill");

        // a fire of another group starts at once on the shared worker, not spilled
        List<String> shared = new CopyOnWriteArrayList<>();
        handOver(
                0,
                "default",
                () -> shared.add(
                        TimedWorkerPool.spilled() + " " + Thread.currentThread().getName()));
        await().atMost(Duration.ofSeconds(5)).until(() -> shared.size() == 1);
        assertThat(shared).containsExactly("false pool-test-1");
        // while the shared worker is free, Quartz's thread takes more fires
        await().atMost(Duration.ofSeconds(5)).until(() -> this.pool.blockForAvailableThreads() == 8);

        // with every lane busy, it waits
        CountDownLatch sharedBusy = new CountDownLatch(1);
        handOver(0, "default", () -> {
            sharedBusy.countDown();
            awaitQuietly(release);
        });
        assertThat(sharedBusy.await(5, TimeUnit.SECONDS)).isTrue();
        Thread looking = new Thread(this.pool::blockForAvailableThreads);
        looking.start();
        looking.join(300);
        assertThat(looking.isAlive()).isTrue();
        release.countDown();
        looking.join(5000);
        assertThat(looking.isAlive()).isFalse();
    }

    @Test
    void aFireThatMayNotBeSpilledWaitsForItsGroupsWorkersAndSpilledFiresHoldNoRoom() throws Exception {
        this.pool.setGroupThreads("reports=1");
        start(1, 2);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch held = new CountDownLatch(1);
        handOver(0, "reports", () -> {
            held.countDown();
            awaitQuietly(release);
        });
        assertThat(held.await(5, TimeUnit.SECONDS)).isTrue();
        // spilled fires are on their way to the database, however slow: they leave the room to others
        for (int i = 0; i < 3; i++) {
            handOver(0, "reports", () -> awaitQuietly(release));
        }
        AtomicInteger room = new AtomicInteger(-1);
        Thread looking = new Thread(() -> room.set(this.pool.blockForAvailableThreads()));
        looking.start();
        looking.join(5000);
        assertThat(room).as("room left once three fires were spilled").hasValue(1);
        // a fixed delay's fire waits for the group's worker instead
        List<String> waited = new CopyOnWriteArrayList<>();
        TimedWorkerPool.startAt(0, "reports", false, () -> {});
        this.pool.runInThread(() -> waited.add(
                TimedWorkerPool.spilled() + " " + Thread.currentThread().getName()));
        release.countDown();
        await().atMost(Duration.ofSeconds(5)).until(() -> waited.size() == 1);
        assertThat(waited).containsExactly("false pool-test-reports-1");
    }

    @Test
    void withoutGroupsOfTheirOwnAFireWaitsForABusyWorkerAndIsNotSpilled() throws Exception {
        start(1, 10);
        CountDownLatch release = new CountDownLatch(1);
        occupyTheWorker(release);
        List<Boolean> spilled = new CopyOnWriteArrayList<>();
        handOver(0, "reports", () -> spilled.add(TimedWorkerPool.spilled()));
        release.countDown();
        await().atMost(Duration.ofSeconds(5)).until(() -> spilled.size() == 1);
        assertThat(spilled).containsExactly(false);
    }

    /** Starts the pool with one worker, created as a scheduler's with a backlog that it counts in. */
    private StartBacklog oneWorkerCounting() throws Exception {
        StartBacklog backlog = new StartBacklog(Duration.ofHours(1));
        StoreHooks.of(null, null, backlog).installWhile(() -> {
            start(1, 10);
            return null;
        });
        return backlog;
    }

    /** Hands over a fire that holds the pool's one worker until released, once it runs. */
    private void occupyTheWorker(CountDownLatch release) throws InterruptedException {
        CountDownLatch runs = new CountDownLatch(1);
        handOver(0, () -> {}, () -> {
            runs.countDown();
            awaitQuietly(release);
        });
        assertThat(runs.await(5, TimeUnit.SECONDS)).isTrue();
    }

    private void start(int threads, int capacity) {
        this.pool.setThreadCount(threads);
        this.pool.setCapacity(capacity);
        this.pool.setThreadNamePrefix("pool-test");
        this.pool.initialize();
    }

    private void handOver(long startAt, Runnable onStart, Runnable shell) {
        TimedWorkerPool.startAt(startAt, onStart);
        assertThat(this.pool.runInThread(shell)).isTrue();
    }

    private void handOver(long startAt, String group, Runnable shell) {
        TimedWorkerPool.startAt(startAt, group, true, () -> {});
        assertThat(this.pool.runInThread(shell)).isTrue();
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }
}
