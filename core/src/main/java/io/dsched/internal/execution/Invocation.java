package io.dsched.internal.execution;

import io.dsched.execution.ExecutionListener;
import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.JobContext;
import io.dsched.execution.JobTimeoutException;
import java.time.Clock;
import java.time.Instant;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.MDC;

/**
 * The pipeline's invocation stage: calls an admitted attempt's job on the calling worker, within
 * the job's timeout, watched for requests to stop it, with the attempt's keys in the logging
 * context.
 */
final class Invocation implements AutoCloseable {

    private final String nodeId;

    private final Clock clock;

    private final StopRequests stops;

    private final ExecutionListener listener;

    private final ScheduledExecutorService watchdog;

    Invocation(String nodeId, Clock clock, StopRequests stops, ExecutionListener listener) {
        this.nodeId = nodeId;
        this.clock = clock;
        this.stops = stops;
        this.listener = listener;
        this.watchdog = Executors.newSingleThreadScheduledExecutor((runnable) -> {
            Thread thread = new Thread(runnable, "dsched-timeouts");
            thread.setDaemon(true);
            return thread;
        });
    }

    /**
     * Calls the job of an attempt and tells how it ended.
     * @param job what the attempt runs
     * @param claim the attempt
     * @return how the call ended
     */
    Result invoke(JobTarget job, ExecutionRecord claim) {
        StopRequests.Running running = this.stops.start(claim.id());
        // a scheduled job's (a handler's keys are its callers'), whether or not it still declares shards
        Sharding.Shard shard = job.guarded() ? Sharding.shardOf(claim.idempotencyKey()) : null;
        AttemptContext context = new AttemptContext(
                claim,
                this.nodeId,
                running,
                (shard != null) ? shard : Sharding.Shard.WHOLE,
                // the parameter its fire was written with, which its attempt carries
                (shard != null) ? Sharding.paramOf(claim.payload()) : null);
        AtomicBoolean timedOut = new AtomicBoolean();
        Instant startedAt = this.clock.instant();
        this.listener.started(claim, startedAt);
        Thread worker = Thread.currentThread();
        ScheduledFuture<?> interrupt = (job.timeout() != null)
                ? this.watchdog.schedule(
                        () -> {
                            timedOut.set(true);
                            worker.interrupt();
                        },
                        job.timeout().toMillis(),
                        TimeUnit.MILLISECONDS)
                : null;
        Throwable failure = null;
        try (MDC.MDCCloseable j = MDC.putCloseable("dsched.job", job.name());
                MDC.MDCCloseable e = MDC.putCloseable("dsched.execution", String.valueOf(claim.id()));
                MDC.MDCCloseable a = MDC.putCloseable("dsched.attempt", String.valueOf(claim.attempt()));
                MDC.MDCCloseable n = MDC.putCloseable("dsched.node", this.nodeId)) {
            job.invoker().invoke(context, claim.payload());
        } catch (Throwable ex) {
            failure = ex;
        } finally {
            if (interrupt != null) {
                interrupt.cancel(false);
            }
            if (running.end()) {
                // interrupted on a request to stop it: clear what the job did not consume
                Thread.interrupted();
            }
        }
        if (timedOut.get()) {
            // clear an interrupt that the job did not consume, so the worker thread stays usable
            Thread.interrupted();
            failure = new JobTimeoutException(job.name(), job.timeout());
        }
        return new Result(startedAt, this.clock.instant(), failure, timedOut.get(), running.stoppedBy());
    }

    @Override
    public void close() {
        this.watchdog.shutdownNow();
    }

    /**
     * How the call of a job ended.
     *
     * @param startedAt when it started
     * @param finishedAt when it returned
     * @param failure what it threw, a {@link JobTimeoutException} if it ran out of time, or
     *     {@code null} if it returned normally
     * @param timedOut whether it ran out of time
     * @param stoppedBy who asked to stop it while it ran, or {@code null}
     */
    record Result(Instant startedAt, Instant finishedAt, Throwable failure, boolean timedOut, String stoppedBy) {

        java.time.Duration duration() {
            return java.time.Duration.between(this.startedAt, this.finishedAt);
        }
    }

    /** The job's view of its attempt. */
    private record AttemptContext(
            ExecutionRecord claim, String nodeId, StopRequests.Running running, Sharding.Shard shard, String shardParam)
            implements JobContext {

        @Override
        public int shardIndex() {
            return this.shard.index();
        }

        @Override
        public int shardCount() {
            return this.shard.count();
        }

        @Override
        public boolean isCancelled() {
            return this.running.stoppedBy() != null;
        }

        @Override
        public String jobName() {
            return this.claim.jobName();
        }

        @Override
        public Instant scheduledAt() {
            return this.claim.scheduledAt();
        }

        @Override
        public int attempt() {
            return this.claim.attempt();
        }

        @Override
        public String idempotencyKey() {
            return this.claim.idempotencyKey();
        }

        @Override
        public long executionId() {
            return this.claim.id();
        }

        @Override
        public String toString() {
            // never the payload, which a job that logs its context would write to its log
            return "JobContext[job=" + jobName() + ", attempt=" + attempt() + ", execution=" + executionId() + "]";
        }
    }
}
