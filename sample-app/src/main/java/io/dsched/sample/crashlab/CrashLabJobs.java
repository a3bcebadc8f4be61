package io.dsched.sample.crashlab;

import io.dsched.annotation.DistributedScheduled;
import io.dsched.execution.JobContext;
import io.dsched.retry.Retry;
import java.time.Duration;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Profile;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Jobs that the crash tests trigger by hand, or reschedule to fire once a few seconds later, and then
 * kill or stop the nodes under. Their declared schedule fires only on the 29th of February, so every
 * run the tests see is one they caused. Each
 * completed run adds a row to {@code crashlab_run}, deliberately without a unique key, so that a fire
 * completed twice shows as two rows.
 */
@Component
@Profile("crashlab")
public class CrashLabJobs {

    /** Name of the job that runs for {@code crashlab.long-job.duration}. */
    public static final String LONG_JOB = "crashlabLongJob";

    /** Name of the job whose first attempt fails and is retried after {@code crashlab.retry-delay}. */
    public static final String RETRY_JOB = "crashlabRetryJob";

    /** Name of the job whose first attempt fails and is retried after {@code crashlab.late-retry-delay}. */
    public static final String LATE_RETRY_JOB = "crashlabLateRetryJob";

    /** Name of a job that does nothing but fire, for the tests to reschedule. */
    public static final String TICKER = "crashlabTicker";

    private static final String LEAP_DAY = "0 0 0 29 2 *";

    private static final Logger logger = LoggerFactory.getLogger(CrashLabJobs.class);

    private final JdbcClient jdbc;

    private final Duration longJobDuration;

    private final String databaseMillis;

    /**
     * Creates the jobs.
     * @param jdbc the database that holds {@code crashlab_run}
     * @param longJobDuration how long the long job runs
     * @param platform the database's platform ({@code postgresql}, {@code mariadb} or {@code h2})
     */
    public CrashLabJobs(
            JdbcClient jdbc,
            @Value("${crashlab.long-job.duration:15s}") Duration longJobDuration,
            @Value("${spring.sql.init.platform:h2}") String platform) {
        this.jdbc = jdbc;
        this.longJobDuration = longJobDuration;
        this.databaseMillis = databaseMillis(platform);
    }

    /** The database's time now in epoch milliseconds, whatever the node's clock says. */
    private static String databaseMillis(String platform) {
        return switch (platform) {
            case "postgresql" -> "SELECT CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)";
            case "mariadb" -> "SELECT CAST(UNIX_TIMESTAMP(NOW(3)) * 1000 AS SIGNED)";
            default ->
                "SELECT DATEDIFF('MILLISECOND', TIMESTAMP WITH TIME ZONE '1970-01-01 00:00:00+00',"
                        + " CURRENT_TIMESTAMP(3))";
        };
    }

    /**
     * Works for a while, then records its run.
     * @param ctx the fire
     * @throws InterruptedException if the node stops meanwhile
     */
    @DistributedScheduled(name = LONG_JOB, cron = LEAP_DAY, retry = @Retry(maxAttempts = 3))
    public void longJob(JobContext ctx) throws InterruptedException {
        logger.info("Long job {} attempt {} started on {}", ctx.idempotencyKey(), ctx.attempt(), ctx.nodeId());
        Thread.sleep(this.longJobDuration.toMillis());
        record(ctx);
    }

    /**
     * Fails its first attempt and records the run of any later one.
     * @param ctx the fire
     */
    @DistributedScheduled(
            name = RETRY_JOB,
            cron = LEAP_DAY,
            retry = @Retry(maxAttempts = 3, delay = "${crashlab.retry-delay:8s}", jitter = "0s"))
    public void retryJob(JobContext ctx) {
        failFirstAttempt(ctx);
        record(ctx);
    }

    /**
     * Fails its first attempt and records the run of any later one, which waits long enough for the
     * tests to restart the cluster in between.
     * @param ctx the fire
     */
    @DistributedScheduled(
            name = LATE_RETRY_JOB,
            cron = LEAP_DAY,
            retry = @Retry(maxAttempts = 3, delay = "${crashlab.late-retry-delay:30s}", jitter = "0s"))
    public void lateRetryJob(JobContext ctx) {
        failFirstAttempt(ctx);
        record(ctx);
    }

    /**
     * Records its run, with the database's time when it started.
     * @param ctx the fire
     */
    @DistributedScheduled(name = TICKER, cron = LEAP_DAY)
    public void ticker(JobContext ctx) {
        long ranAt = this.jdbc.sql(this.databaseMillis).query(Long.class).single();
        record(ctx, ranAt);
    }

    private static void failFirstAttempt(JobContext ctx) {
        if (ctx.attempt() == 1) {
            throw new IllegalStateException("Attempt 1 of " + ctx.idempotencyKey() + " fails on purpose");
        }
    }

    private void record(JobContext ctx) {
        record(ctx, null);
    }

    private void record(JobContext ctx, Long ranAt) {
        this.jdbc
                .sql("""
                        INSERT INTO crashlab_run
                            (run_id, job_name, idempotency_key, attempt, execution_id, node_id, scheduled_ms, ran_ms)
                        VALUES (:runId, :job, :key, :attempt, :executionId, :nodeId, :scheduledAt, :ranAt)
                        """)
                .param("runId", UUID.randomUUID().toString())
                .param("job", ctx.jobName())
                .param("key", ctx.idempotencyKey())
                .param("attempt", ctx.attempt())
                .param("executionId", ctx.executionId())
                .param("nodeId", ctx.nodeId())
                .param("scheduledAt", ctx.scheduledAt().toEpochMilli())
                .param("ranAt", ranAt)
                .update();
        logger.info("Completed {} attempt {} on {}", ctx.idempotencyKey(), ctx.attempt(), ctx.nodeId());
    }
}
