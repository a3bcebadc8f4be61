package io.dsched.quartz.contract;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.quartz.DisallowConcurrentExecution;
import org.quartz.Job;
import org.quartz.JobDataMap;
import org.quartz.JobExecutionContext;
import org.quartz.JobExecutionException;
import org.quartz.JobKey;
import org.quartz.PersistJobDataAfterExecution;
import org.quartz.SchedulerException;
import org.quartz.TriggerKey;

/**
 * What the suite's jobs did: every run with its node, trigger and scheduled time, and for each job
 * how many of its runs were running at once at most. A job's work takes the milliseconds of its
 * data's {@code workMillis}, so that runs overlap where the store would let them.
 */
final class Fires {

    /** One run of a job. */
    record Fire(
            String node, JobKey job, TriggerKey trigger, Instant scheduledAt, Instant startedAt, boolean recovering) {}

    private static final List<Fire> FIRES = new CopyOnWriteArrayList<>();

    private static final Map<JobKey, AtomicInteger> RUNNING = new ConcurrentHashMap<>();

    private static final Map<JobKey, AtomicInteger> MOST_AT_ONCE = new ConcurrentHashMap<>();

    private static volatile CountDownLatch stuck = new CountDownLatch(1);

    private Fires() {}

    static void reset() {
        FIRES.clear();
        RUNNING.clear();
        MOST_AT_ONCE.clear();
        stuck.countDown();
        stuck = new CountDownLatch(1);
    }

    static List<Fire> all() {
        return List.copyOf(FIRES);
    }

    static List<Fire> of(JobKey job) {
        return FIRES.stream().filter((fire) -> fire.job().equals(job)).toList();
    }

    static List<Fire> of(TriggerKey trigger) {
        return FIRES.stream().filter((fire) -> fire.trigger().equals(trigger)).toList();
    }

    static int mostAtOnce(JobKey job) {
        AtomicInteger most = MOST_AT_ONCE.get(job);
        return (most != null) ? most.get() : 0;
    }

    /** Holds a run until {@link #unstick()}, for a minute at most. */
    private static void awaitUnstuck() {
        try {
            stuck.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    /** Lets the held runs of {@link HeldSerialJob} and {@link StuckJob} return. */
    static void unstick() {
        stuck.countDown();
    }

    private static void run(JobExecutionContext context) throws JobExecutionException {
        JobKey job = context.getJobDetail().getKey();
        AtomicInteger running = RUNNING.computeIfAbsent(job, (key) -> new AtomicInteger());
        int now = running.incrementAndGet();
        MOST_AT_ONCE.computeIfAbsent(job, (key) -> new AtomicInteger()).accumulateAndGet(now, Math::max);
        try {
            FIRES.add(new Fire(
                    context.getScheduler().getSchedulerInstanceId(),
                    job,
                    context.getTrigger().getKey(),
                    context.getScheduledFireTime().toInstant(),
                    Instant.now(),
                    context.isRecovering()));
            String work = context.getMergedJobDataMap().getString("workMillis");
            if (work != null) {
                // the job's own work, which makes its runs overlap where the store lets them
                Thread.sleep(Long.parseLong(work));
            }
        } catch (SchedulerException ex) {
            throw new JobExecutionException(ex);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        } finally {
            running.decrementAndGet();
        }
    }

    /** A job that may run concurrently. */
    public static class FreeJob implements Job {

        @Override
        public void execute(JobExecutionContext context) throws JobExecutionException {
            run(context);
        }
    }

    /** A job that disallows concurrent execution. */
    @DisallowConcurrentExecution
    public static class SerialJob implements Job {

        @Override
        public void execute(JobExecutionContext context) throws JobExecutionException {
            run(context);
        }
    }

    /** A job that counts its runs in its own data, persisted after each, one run at a time. */
    @PersistJobDataAfterExecution
    @DisallowConcurrentExecution
    public static class CountingJob implements Job {

        @Override
        public void execute(JobExecutionContext context) throws JobExecutionException {
            JobDataMap data = context.getJobDetail().getJobDataMap();
            int count = Integer.parseInt(data.getString("count"));
            run(context);
            data.put("count", String.valueOf(count + 1));
        }
    }

    /** A job that disallows concurrent execution and whose runs do not return until {@link #unstick()}. */
    @DisallowConcurrentExecution
    public static class HeldSerialJob implements Job {

        @Override
        public void execute(JobExecutionContext context) throws JobExecutionException {
            run(context);
            awaitUnstuck();
        }
    }

    /** A job whose first run does not return until {@link #unstick()}; its recovery returns at once. */
    public static class StuckJob implements Job {

        @Override
        public void execute(JobExecutionContext context) throws JobExecutionException {
            run(context);
            if (!context.isRecovering()) {
                awaitUnstuck();
            }
        }
    }

    /**
     * A job that persists its data and leaves a value in it that the store, which keeps job data
     * as properties, cannot write: its completion fails every time.
     */
    @PersistJobDataAfterExecution
    @DisallowConcurrentExecution
    public static class UnwritableDataJob implements Job {

        @Override
        public void execute(JobExecutionContext context) throws JobExecutionException {
            run(context);
            context.getJobDetail().getJobDataMap().put("unwritable", Integer.valueOf(1));
        }
    }
}
