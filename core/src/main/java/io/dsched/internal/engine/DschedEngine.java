package io.dsched.internal.engine;

import io.dsched.quartz.NodeStanding;
import io.dsched.quartz.StartBacklog;
import io.dsched.quartz.StoreHooks;
import java.time.Duration;
import java.util.Properties;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.impl.SchedulerRepository;
import org.quartz.impl.StdSchedulerFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.context.SmartLifecycle;

/**
 * This node's clustered Quartz scheduler and its life cycle: on start it writes the declared
 * jobs into the store and starts taking fires; on stop it takes no new fires and, if so
 * configured, lets running ones finish.
 */
public final class DschedEngine implements SmartLifecycle, DisposableBean {

    private static final Logger logger = LoggerFactory.getLogger(DschedEngine.class);

    private final Scheduler scheduler;

    private final StoreHooks hooks;

    private final JobSynchronizer synchronizer;

    private final GracefulShutdown shutdown;

    private final boolean runJobs;

    private volatile boolean running;

    /**
     * How long a stop with no job running waits for Quartz's shutdown: for the fires its scheduler
     * thread still hands out, which the dispatcher leaves at once and Quartz records complete. While
     * the database fails, Quartz retries such writes (every 15 s) until it answers; past this the
     * store is shut down and they are given up.
     */
    private Duration lateFiresPatience = Duration.ofSeconds(20);

    /**
     * Creates the engine and its (not yet started) scheduler.
     * @param quartzProperties the node's Quartz properties, see {@link QuartzSettings}
     * @param dispatcher receives the fires
     * @param synchronizerFactory creates the synchronizer for the scheduler
     * @param shutdown how stopping waits for running jobs
     * @param runJobs whether this node fires triggers; when not, its scheduler stays in standby
     *     and serves only the management of jobs
     * @param standing the node's standing in the cluster, which governs its store
     * @param backlog the node's fires due and not started, which its worker pool counts and its
     *     store's grouped completions wait for
     * @throws SchedulerException if Quartz cannot be set up
     */
    public DschedEngine(
            Properties quartzProperties,
            FireDispatcher dispatcher,
            java.util.function.Function<Scheduler, JobSynchronizer> synchronizerFactory,
            GracefulShutdown shutdown,
            boolean runJobs,
            NodeStanding standing,
            StartBacklog backlog)
            throws SchedulerException {
        this.hooks = StoreHooks.of(standing, dispatcher, backlog);
        this.scheduler = createScheduler(quartzProperties, this.hooks);
        this.scheduler.setJobFactory(dispatcher);
        this.synchronizer = synchronizerFactory.apply(this.scheduler);
        this.shutdown = shutdown;
        shutdown.onQuiesce(this::standby);
        // a fire acquired before the standby still reaches a worker: it is left to another node
        shutdown.onQuiesce(dispatcher::stopRunning);
        this.runJobs = runJobs;
    }

    private static Scheduler createScheduler(Properties properties, StoreHooks hooks) throws SchedulerException {
        SchedulerRepository repository = SchedulerRepository.getInstance();
        synchronized (repository) {
            // the node's store takes its standing and its claims as Quartz initializes it
            Scheduler scheduler = hooks.installWhile(() -> new StdSchedulerFactory(properties).getScheduler());
            // several nodes of one cluster may live in one JVM (tests, the sample's demo):
            // Quartz's global repository would otherwise hand them all the same scheduler
            repository.remove(scheduler.getSchedulerName());
            return scheduler;
        }
    }

    /**
     * Returns the Quartz scheduler of this node.
     * @return the scheduler
     */
    public Scheduler scheduler() {
        return this.scheduler;
    }

    @Override
    public void start() {
        try {
            this.synchronizer.synchronize();
        } catch (SchedulerException | RuntimeException ex) {
            destroy();
            throw new IllegalStateException("Could not write dsched's jobs to the store: " + ex.getMessage(), ex);
        }
        try {
            if (this.runJobs) {
                this.scheduler.start();
            }
            this.running = true;
            logger.info(
                    "dsched node {} joined cluster '{}'",
                    this.scheduler.getSchedulerInstanceId(),
                    this.scheduler.getSchedulerName());
        } catch (SchedulerException ex) {
            throw new IllegalStateException("Could not start the dsched scheduler: " + ex.getMessage(), ex);
        }
    }

    @Override
    public void stop() {
        try {
            // either way, the store puts back the triggers this node acquired but did not fire
            if (awaitRunningJobs()) {
                shutDownAfterLateFires();
            } else {
                this.scheduler.shutdown(false);
            }
        } catch (SchedulerException | RuntimeException ex) {
            logger.warn("Could not stop the dsched scheduler cleanly", ex);
        } finally {
            this.running = false;
        }
    }

    /**
     * Shuts Quartz down once the fires its scheduler thread still hands out are done: the dispatcher
     * leaves each, and Quartz must record it complete before its store shuts down, or the job's
     * triggers stay blocked until the others count this node dead. Waits for that for a while; then
     * shuts the store down, so that no thread of Quartz's keeps retrying a write after the
     * application has closed its database.
     */
    private void shutDownAfterLateFires() throws SchedulerException {
        Thread stopping = new Thread(
                () -> {
                    try {
                        this.scheduler.shutdown(true);
                    } catch (SchedulerException | RuntimeException ex) {
                        logger.warn("Could not stop the dsched scheduler cleanly", ex);
                    }
                },
                stopThreadName(this.scheduler));
        stopping.setDaemon(true);
        stopping.start();
        Duration waited = joinUninterruptibly(stopping, this.lateFiresPatience);
        if (stopping.isAlive()) {
            logger.warn(
                    "Quartz had not stopped after {}: a write of its (a fire handed out while this node"
                            + " stopped, or a trigger it had acquired) still waits for the database."
                            + " Its store is shut down now; the jobs of those fires may wait until the"
                            + " others count this node dead",
                    waited);
            Thread store = new Thread(this.hooks::shutDownStore, stopThreadName(this.scheduler) + "-store");
            store.setDaemon(true);
            store.start();
        }
    }

    /** The name of the thread that shuts a scheduler down. */
    static String stopThreadName(Scheduler scheduler) throws SchedulerException {
        return "dsched-stop-" + scheduler.getSchedulerName() + "-" + scheduler.getSchedulerInstanceId();
    }

    /** Joins the thread for at most the patience, interrupted or not; returns how long it waited. */
    private static Duration joinUninterruptibly(Thread thread, Duration patience) {
        long from = System.nanoTime();
        long deadline = from + patience.toNanos();
        boolean interrupted = false;
        try {
            for (long left = patience.toNanos(); left > 0 && thread.isAlive(); left = deadline - System.nanoTime()) {
                try {
                    thread.join(Math.max(1, left / 1_000_000));
                } catch (InterruptedException ex) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        return Duration.ofMillis((System.nanoTime() - from) / 1_000_000);
    }

    /** For tests: how long a stop with no job running waits for the fires handed out meanwhile. */
    void lateFiresPatience(Duration patience) {
        this.lateFiresPatience = patience;
    }

    private void standby() {
        try {
            if (this.scheduler.isStarted() && !this.scheduler.isShutdown()) {
                this.scheduler.standby();
            }
        } catch (SchedulerException ex) {
            logger.warn("Could not stop taking fires: {}", ex.getMessage());
        }
    }

    /** Waits for the running jobs until the shutdown timeout; returns whether none runs. */
    private boolean awaitRunningJobs() throws SchedulerException {
        Duration left = this.shutdown.remaining();
        long deadline = System.nanoTime() + left.toNanos();
        int running = this.scheduler.getCurrentlyExecutingJobs().size();
        while (running > 0 && System.nanoTime() < deadline) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                break;
            }
            running = this.scheduler.getCurrentlyExecutingJobs().size();
        }
        if (running > 0) {
            logger.warn(
                    "Stopping with {} job(s) still running after the shutdown timeout; another node takes"
                            + " their fires over",
                    running);
        }
        return running == 0;
    }

    /** Shuts the scheduler down if it was never started or stopped, such as after a failed start-up. */
    @Override
    public void destroy() {
        try {
            if (!this.scheduler.isShutdown()) {
                this.scheduler.shutdown(false);
            }
        } catch (SchedulerException ex) {
            logger.warn("Could not shut the dsched scheduler down", ex);
        }
    }

    @Override
    public boolean isRunning() {
        return this.running;
    }

    @Override
    public int getPhase() {
        // before the web server, so that endpoints find every job in the store from the start
        return DschedPhases.ENGINE;
    }
}
