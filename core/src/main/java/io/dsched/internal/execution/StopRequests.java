package io.dsched.internal.execution;

import io.dsched.execution.JobContext;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stops the attempts running on this node that someone asked to stop, wherever they asked: reads
 * the requests of this node's running attempts at a short interval (one read while attempts run,
 * none otherwise), flags each job's {@link JobContext#isCancelled()} and, if the job has not ended
 * after the grace, interrupts its thread.
 */
public final class StopRequests implements AutoCloseable {

    private static final Logger logger = LoggerFactory.getLogger(StopRequests.class);

    private final Function<Collection<Long>, Map<Long, String>> requested;

    private final Duration grace;

    private final Map<Long, Running> running = new ConcurrentHashMap<>();

    private final ScheduledExecutorService timer;

    /**
     * Creates the watch and starts reading requests.
     * @param requested who asked to stop which of the given attempts
     * @param pollInterval how often to read them
     * @param grace how long a flagged job has to end before its thread is interrupted
     */
    public StopRequests(
            Function<Collection<Long>, Map<Long, String>> requested, Duration pollInterval, Duration grace) {
        this.requested = requested;
        this.grace = grace;
        this.timer = Executors.newSingleThreadScheduledExecutor((runnable) -> {
            Thread thread = new Thread(runnable, "dsched-stops");
            thread.setDaemon(true);
            return thread;
        });
        this.timer.scheduleWithFixedDelay(
                this::poll, pollInterval.toMillis(), pollInterval.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Watches an attempt that starts to run on the calling thread.
     * @param executionId the attempt
     * @return its watch, to {@link Running#end() end} when its method returns
     */
    Running start(long executionId) {
        Running attempt = new Running(executionId, Thread.currentThread());
        this.running.put(executionId, attempt);
        return attempt;
    }

    /** Reads the requests of the attempts running here, and stops those asked for. */
    void poll() {
        if (this.running.isEmpty()) {
            return;
        }
        try {
            this.requested.apply(Set.copyOf(this.running.keySet())).forEach((id, by) -> {
                Running attempt = this.running.get(id);
                if (attempt != null) {
                    attempt.stop(by);
                }
            });
        } catch (RuntimeException ex) {
            // the next poll asks again
            logger.debug("Could not read the requests to stop attempts: {}", ex.getMessage());
        }
    }

    @Override
    public void close() {
        this.timer.shutdownNow();
    }

    /** One attempt running on this node, and whether it was asked to stop. */
    final class Running {

        private final long executionId;

        private final Thread worker;

        private volatile String stoppedBy;

        private boolean ended;

        private boolean interrupted;

        Running(long executionId, Thread worker) {
            this.executionId = executionId;
            this.worker = worker;
        }

        /** Who asked to stop the attempt, or {@code null} if nobody has. */
        String stoppedBy() {
            return this.stoppedBy;
        }

        private void stop(String by) {
            if (this.stoppedBy != null) {
                return;
            }
            this.stoppedBy = by;
            logger.info("Stopping execution {}, as {} asked", this.executionId, by);
            StopRequests.this.timer.schedule(
                    this::interrupt, StopRequests.this.grace.toMillis(), TimeUnit.MILLISECONDS);
        }

        private synchronized void interrupt() {
            if (!this.ended) {
                logger.info(
                        "Interrupting execution {}: it did not end within {} of the request to stop it",
                        this.executionId,
                        StopRequests.this.grace);
                this.interrupted = true;
                this.worker.interrupt();
            }
        }

        /**
         * Ends the watch, on the attempt's thread, once its method has returned: from here its
         * thread is never interrupted for it.
         * @return whether the thread was interrupted for it, so that the caller clears the flag
         */
        synchronized boolean end() {
            this.ended = true;
            StopRequests.this.running.remove(this.executionId, this);
            return this.interrupted;
        }
    }
}
