package io.dsched.internal.engine;

import io.dsched.quartz.NodeStanding;
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

    private final JobSynchronizer synchronizer;

    private final GracefulShutdown shutdown;

    private final boolean runJobs;

    private volatile boolean running;

    /**
     * How long a stop with no job running waits for the fires Quartz's scheduler thread still hands
     * out: the dispatcher leaves each at once, but while the database fails Quartz retries its
     * completion until the database is back.
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
     * @throws SchedulerException if Quartz cannot be set up
     */
    public DschedEngine(
            Properties quartzProperties,
            FireDispatcher dispatcher,
            java.util.function.Function<Scheduler, JobSynchronizer> synchronizerFactory,
            GracefulShutdown shutdown,
            boolean runJobs,
            NodeStanding standing)
            throws SchedulerException {
        this.scheduler = createScheduler(quartzProperties, StoreHooks.of(standing, dispatcher));
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
            if (awaitRunningJobs()) {
                shutDownAfterLateFires();
            } else {
                // the store puts back the triggers this node acquired but did not fire
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
     * triggers stay blocked until the others count this node dead. Waits for that for a while.
     */
    private void shutDownAfterLateFires() {
        Thread stopping = new Thread(
                () -> {
                    try {
                        this.scheduler.shutdown(true);
                    } catch (SchedulerException ex) {
                        logger.warn("Could not stop the dsched scheduler cleanly", ex);
                    }
                },
                "dsched-stop");
        stopping.setDaemon(true);
        stopping.start();
        try {
            stopping.join(this.lateFiresPatience.toMillis());
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        if (stopping.isAlive()) {
            logger.warn(
                    "Stopping before Quartz has recorded the fires it handed out while this node stopped"
                            + " (after {}); their jobs may wait until the others count this node dead",
                    this.lateFiresPatience);
        }
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
