package io.dsched.internal.engine;

import io.dsched.quartz.StartBacklog;
import io.dsched.quartz.StoreHooks;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
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
 * <p>With groups that have workers of their own ({@code org.quartz.threadPool.groupThreads}, from
 * {@code dsched.node.group-threads}), each such group's fires run on its own {@link WorkerLane}
 * and every other fire on the shared one of {@code threadCount} threads: a fire whose lane has no
 * free worker is not queued behind the others of its group, which would in time fill the pool and
 * keep Quartz's thread from taking any group's fires, but spilled ({@link #spilled}): its job does
 * not run here, and the fire waits in the queue of attempts for a free worker of its group on any
 * node. Quartz's thread waits only while every lane is busy.
 *
 * <p>It counts the fires whose time has come and that wait for a worker in the {@link
 * StartBacklog} of the scheduler it is created with ({@link StoreHooks#beingInstalled}): the node's
 * writes that can wait hold back while there are any.
 */
public final class TimedWorkerPool implements ThreadPool {

    private static final Logger logger = LoggerFactory.getLogger(TimedWorkerPool.class);

    private int threadCount = 10;

    private int capacity;

    private String groupThreads = "";

    private String threadNamePrefix = "dsched-worker";

    private WorkerThreads workerThreads = WorkerThreads.PLATFORM;

    private StartBacklog backlog = StartBacklog.NONE;

    private FireTimer timer;

    private WorkerLanes lanes;

    private final Object room = new Object();

    /** Fires taken, waiting or running; guarded by {@link #room}. */
    private int taken;

    private boolean shutDown;

    /**
     * Tells the pool on this thread when the next fire it is handed should start, and what to do as
     * a worker starts it.
     * @param epochMillis the fire's scheduled time
     * @param onStart run on the worker as it starts the fire, before the job
     */
    public static void startAt(long epochMillis, Runnable onStart) {
        startAt(epochMillis, "", true, onStart);
    }

    /**
     * Tells the pool on this thread when the next fire it is handed should start, in which group's
     * pool, and what to do as a worker starts it.
     * @param epochMillis the fire's scheduled time
     * @param group the node group of the fire's job; a group without workers of its own runs on the
     *     shared ones
     * @param spillable whether the fire may be spilled ({@link #spilled}) when its pool's workers are
     *     all busy; else it waits for one of them
     * @param onStart run on the worker as it starts the fire, before the job
     */
    public static void startAt(long epochMillis, String group, boolean spillable, Runnable onStart) {
        FireStart.next(new FireStart(epochMillis, group, spillable, onStart));
    }

    /**
     * Whether the fire running on this thread was handed to its worker before its time because the
     * pool shut down: its job must not run, and the fire is left to another node.
     * @return {@code true} if it was given up
     */
    public static boolean givenUp() {
        return FireStart.givenUp();
    }

    /**
     * Whether the fire running on this thread found no free worker in its group's pool: its job
     * must not run here, and the fire waits for a free worker of its group on any node.
     * @return {@code true} if it was spilled
     */
    public static boolean spilled() {
        return FireStart.spilled();
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

    /**
     * Gives groups workers of their own, besides the {@code threadCount} shared ones.
     * @param groupThreads the groups and their threads, as {@code reports=4,payments=2}
     */
    public void setGroupThreads(String groupThreads) {
        this.groupThreads = groupThreads;
    }

    public String getGroupThreads() {
        return this.groupThreads;
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
        this.capacity = Math.max(this.capacity, getPoolSize());
        this.backlog = StoreHooks.beingInstalled().backlog();
        this.lanes = new WorkerLanes(
                this.threadCount,
                WorkerLanes.groupThreads(this.groupThreads),
                this.workerThreads,
                this.threadNamePrefix,
                TimedWorkerPool::threads);
        this.timer = new FireTimer(threads(this.threadNamePrefix + "-timer"));
    }

    @Override
    public boolean runInThread(Runnable shell) {
        FireStart start = FireStart.take();
        PooledFire fire = new PooledFire(shell, start.onStart(), start.epochMillis(), start.group(), start.spillable());
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
        // given up if the pool shut down meanwhile
        this.timer.whenDue(fire, this::start, (stopped) -> giveUp(List.of(stopped)));
    }

    private void start(PooledFire fire) {
        WorkerLane lane = this.lanes.of(fire.group());
        boolean spilled;
        synchronized (this.room) {
            spilled = fire.spillable() && this.lanes.spills(lane);
            if (spilled) {
                // on its way to the database: it holds no room here, which other groups' fires need
                this.taken--;
                this.room.notifyAll();
            } else {
                lane.taken();
            }
        }
        if (spilled) {
            spill(fire);
            return;
        }
        this.backlog.due();
        try {
            lane.workers().execute(() -> {
                this.backlog.started();
                try {
                    fire.run();
                } catch (RuntimeException ex) {
                    escaped(ex);
                } finally {
                    ended(lane);
                }
            });
        } catch (RejectedExecutionException ex) {
            this.backlog.started();
            synchronized (this.room) {
                lane.ended();
            }
            giveUp(List.of(fire));
        }
    }

    /**
     * Hands a fire whose lane has no free worker to the spill thread, to wait for one elsewhere. It
     * is no longer counted as taken.
     */
    private void spill(PooledFire fire) {
        try {
            this.lanes.spill(() -> {
                try {
                    FireStart.runSpilled(fire::run);
                } catch (RuntimeException ex) {
                    escaped(ex);
                }
            });
        } catch (RejectedExecutionException ex) {
            // the pool shut down meanwhile: given up, and counted off as such
            synchronized (this.room) {
                this.taken++;
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
                ended(null);
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

    /** Counts a fire off: one that ran at a worker of a lane, or {@code null}, one that did not. */
    private void ended(WorkerLane lane) {
        synchronized (this.room) {
            if (lane != null) {
                lane.ended();
            }
            this.taken--;
            this.room.notifyAll();
        }
    }

    /**
     * Waits until the pool has room for a fire and a worker of some lane is free, as Quartz's thread
     * asks before it looks for due triggers.
     */
    @Override
    public int blockForAvailableThreads() {
        synchronized (this.room) {
            while (!this.shutDown && (this.taken >= this.capacity || this.lanes.allBusy())) {
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
        // a fire the timer is handing to a worker right now gets there before the workers stop
        List<PooledFire> given = this.timer.stop();
        // fires due and waiting for a busy worker, which may not end before the stop: given up too
        List<Runnable> tasks = new ArrayList<>();
        this.lanes.drainWaiting(tasks);
        for (PooledFire fire : given) {
            tasks.add(notAtWorker(fire));
        }
        Thread leaving = tasks.isEmpty() ? null : giveUpTasks(tasks);
        this.lanes.shutdown();
        if (waitForJobsToComplete) {
            try {
                if (leaving != null) {
                    leaving.join();
                }
                this.lanes.awaitTermination();
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** All the workers: the shared ones and each group's. */
    @Override
    public int getPoolSize() {
        return this.threadCount
                + WorkerLanes.groupThreads(this.groupThreads).values().stream()
                        .mapToInt(Integer::intValue)
                        .sum();
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
