package io.dsched.internal.engine;

import io.dsched.quartz.StartBacklog;
import io.dsched.quartz.StoreHooks;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.quartz.spi.ThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Quartz thread pool of a dsched node: it starts each fire at the time it was scheduled for,
 * not when Quartz's scheduler thread hands it over. With a store that fires triggers ahead of their
 * time ({@code SkipLockedJobStore#setFireAheadMillis}), the fires wait here for their time, so that
 * at the due instant a worker only starts the job; without, a fire comes at its time and starts at
 * once (Quartz's thread hands a fire over up to 2 ms early; this pool starts it on the dot).
 *
 * <p>It holds up to {@code capacity} fires at once, waiting for their time or running, and runs
 * {@code threadCount} of them at once. It takes more only while a worker is free: a node whose
 * workers are all busy fires nothing ahead, which leaves the fires to nodes that can start them.
 *
 * <p>Quartz creates it by name and sets its properties ({@code org.quartz.threadPool.threadCount},
 * {@code .capacity}, {@code .threadNamePrefix}). The fire's time reaches it from the job factory
 * ({@link #startAt}), called on Quartz's scheduler thread for each fire just before it is handed
 * over.
 *
 * <p>It counts the fires whose time has come and that wait for a worker in the {@link
 * StartBacklog} of the scheduler it is created with ({@link StoreHooks#beingInstalled}): the node's
 * writes that can wait hold back while there are any.
 */
public final class TimedWorkerPool implements ThreadPool {

    private static final Logger logger = LoggerFactory.getLogger(TimedWorkerPool.class);

    private int threadCount = 10;

    private int capacity;

    private String threadNamePrefix = "dsched-worker";

    private WorkerThreads workerThreads = WorkerThreads.PLATFORM;

    private StartBacklog backlog = StartBacklog.NONE;

    private ScheduledThreadPoolExecutor timer;

    private ThreadPoolExecutor workers;

    private final Object room = new Object();

    /** Fires taken, waiting or running; guarded by {@link #room}. */
    private int taken;

    /** Fires handed to the workers, running or waiting for one; guarded by {@link #room}. */
    private int atWorkers;

    private boolean shutDown;

    /** Fires handed over before their time, waiting for it. */
    private final java.util.Set<PooledFire> waiting = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /**
     * Tells the pool on this thread when the next fire it is handed should start, and what to do as
     * a worker starts it.
     * @param epochMillis the fire's scheduled time
     * @param onStart run on the worker as it starts the fire, before the job
     */
    public static void startAt(long epochMillis, Runnable onStart) {
        FireStart.next(new FireStart(epochMillis, onStart));
    }

    /**
     * Whether the fire running on this thread was handed to its worker before its time because the
     * pool shut down: its job must not run, and the fire is left to another node.
     * @return {@code true} if it was given up
     */
    public static boolean givenUp() {
        return FireStart.givenUp();
    }

    public void setThreadCount(int threadCount) {
        this.threadCount = threadCount;
    }

    public int getThreadCount() {
        return this.threadCount;
    }

    public void setCapacity(int capacity) {
        this.capacity = capacity;
    }

    public int getCapacity() {
        return this.capacity;
    }

    public void setThreadNamePrefix(String threadNamePrefix) {
        this.threadNamePrefix = threadNamePrefix;
    }

    /**
     * Sets whether the workers are virtual threads (Java 21 and later); the timer stays a platform
     * thread.
     * @param virtualThreads {@code true} for virtual threads
     */
    public void setVirtualThreads(boolean virtualThreads) {
        this.workerThreads = virtualThreads ? WorkerThreads.VIRTUAL : WorkerThreads.PLATFORM;
    }

    @Override
    public void initialize() {
        if (this.threadCount < 1) {
            throw new IllegalArgumentException("A worker pool needs at least one thread: " + this.threadCount);
        }
        this.capacity = Math.max(this.capacity, this.threadCount);
        this.backlog = StoreHooks.beingInstalled().backlog();
        this.workers = new ThreadPoolExecutor(
                this.threadCount,
                this.threadCount,
                0,
                TimeUnit.MILLISECONDS,
                new LinkedBlockingQueue<>(),
                this.workerThreads.factory(this.threadNamePrefix + "-"));
        this.workers.prestartAllCoreThreads();
        this.timer = new ScheduledThreadPoolExecutor(1, threads(this.threadNamePrefix + "-timer"));
        this.timer.setRemoveOnCancelPolicy(true);
    }

    @Override
    public boolean runInThread(Runnable shell) {
        FireStart start = FireStart.take();
        PooledFire fire = new PooledFire(shell, start.onStart(), start.epochMillis());
        boolean shutDown;
        synchronized (this.room) {
            this.taken++;
            shutDown = this.shutDown;
        }
        if (shutDown) {
            // Quartz's thread may hand out a last fire after the pool shut down: give it up at once
            giveUp(List.of(fire));
        } else {
            startWhenDue(fire);
        }
        return true;
    }

    private void startWhenDue(PooledFire fire) {
        long early = fire.startAt() - System.currentTimeMillis();
        if (early <= 0) {
            start(fire);
            return;
        }
        this.waiting.add(fire);
        try {
            this.timer.schedule(
                    () -> {
                        if (this.waiting.remove(fire)) {
                            startWhenDue(fire);
                        }
                    },
                    early,
                    TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException ex) {
            // the pool shut down meanwhile
            if (this.waiting.remove(fire)) {
                giveUp(List.of(fire));
            }
        }
    }

    private void start(PooledFire fire) {
        synchronized (this.room) {
            this.atWorkers++;
        }
        this.backlog.due();
        try {
            this.workers.execute(() -> {
                this.backlog.started();
                try {
                    fire.run();
                } catch (RuntimeException ex) {
                    escaped(ex);
                } finally {
                    ended(true);
                }
            });
        } catch (RejectedExecutionException ex) {
            this.backlog.started();
            synchronized (this.room) {
                this.atWorkers--;
            }
            giveUp(List.of(fire));
        }
    }

    /**
     * Hands fires to a thread of their own at once, given up ({@link #givenUp}), not to the
     * workers, which may all be busy with jobs that outlast the stop.
     */
    private Thread giveUp(List<PooledFire> fires) {
        return giveUpTasks(fires.stream().map(this::notAtWorker).toList());
    }

    /** A fire run off the workers, counted as ended when it has run. */
    private Runnable notAtWorker(PooledFire fire) {
        return () -> {
            try {
                fire.run();
            } finally {
                ended(false);
            }
        };
    }

    private Thread giveUpTasks(List<Runnable> tasks) {
        Thread leaving = threads(this.threadNamePrefix + "-leaving").newThread(() -> {
            for (Runnable task : tasks) {
                try {
                    FireStart.runGivenUp(task);
                } catch (RuntimeException ex) {
                    // the others are given up all the same, and counted off as started
                    logger.warn("Could not give up a fire as the pool shut down: {}", ex.getMessage(), ex);
                }
            }
        });
        leaving.start();
        return leaving;
    }

    /**
     * Keeps the worker going when an exception escapes a fire, as Quartz's own pool does: Quartz
     * catches what its job throws, so what escapes is its store's record of the fire's end, such as
     * a completion that waited for the database until the store shut down. A worker thread that
     * died of it would end as an uncaught exception on a node that is stopping. An {@link Error}
     * still ends the worker, which the pool replaces while it runs.
     */
    private static void escaped(RuntimeException ex) {
        logger.warn(
                "Quartz could not record the end of a fire ({}); its record is left to the cluster's recovery"
                        + " of this node",
                ex.toString());
        logger.debug("What ended the fire", ex);
    }

    private void ended(boolean atWorker) {
        synchronized (this.room) {
            if (atWorker) {
                this.atWorkers--;
            }
            this.taken--;
            this.room.notifyAll();
        }
    }

    /**
     * Waits until the pool has room for a fire and a worker is free, as Quartz's thread asks before
     * it looks for due triggers.
     */
    @Override
    public int blockForAvailableThreads() {
        synchronized (this.room) {
            while (!this.shutDown && (this.taken >= this.capacity || this.atWorkers >= this.threadCount)) {
                try {
                    this.room.wait(500);
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                    return 0;
                }
            }
            return this.shutDown ? 0 : this.capacity - this.taken;
        }
    }

    /**
     * Shuts the pool down. Fires still waiting for their time are given up at once ({@link
     * #givenUp}) on a thread of their own, and Quartz records them complete; waiting for jobs to
     * complete waits for that too.
     * @param waitForJobsToComplete whether to wait for the running fires to end
     */
    @Override
    public void shutdown(boolean waitForJobsToComplete) {
        synchronized (this.room) {
            if (this.shutDown) {
                return;
            }
            this.shutDown = true;
            this.room.notifyAll();
        }
        this.timer.shutdownNow();
        try {
            // a fire the timer is handing to a worker right now gets there before the workers stop
            this.timer.awaitTermination(1, TimeUnit.SECONDS);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        List<PooledFire> given = new ArrayList<>();
        for (PooledFire fire : List.copyOf(this.waiting)) {
            if (this.waiting.remove(fire)) {
                given.add(fire);
            }
        }
        // fires due and waiting for a busy worker, which may not end before the stop: given up too
        List<Runnable> tasks = new ArrayList<>();
        this.workers.getQueue().drainTo(tasks);
        for (PooledFire fire : given) {
            tasks.add(notAtWorker(fire));
        }
        Thread leaving = tasks.isEmpty() ? null : giveUpTasks(tasks);
        this.workers.shutdown();
        if (waitForJobsToComplete) {
            try {
                if (leaving != null) {
                    leaving.join();
                }
                while (!this.workers.awaitTermination(1, TimeUnit.SECONDS)) {
                    // Quartz's own pool waits for its running jobs as long as they take
                }
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public int getPoolSize() {
        return this.threadCount;
    }

    @Override
    public void setInstanceId(String schedInstId) {}

    @Override
    public void setInstanceName(String schedName) {}

    private static ThreadFactory threads(String prefix) {
        return (runnable) -> {
            Thread thread = new Thread(runnable, prefix);
            // a job still running when the shutdown timeout ends must not keep the JVM alive
            thread.setDaemon(true);
            return thread;
        };
    }
}
