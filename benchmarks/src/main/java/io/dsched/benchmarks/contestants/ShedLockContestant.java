package io.dsched.benchmarks.contestants;

import com.zaxxer.hikari.HikariDataSource;
import io.dsched.benchmarks.BenchDatabase;
import io.dsched.benchmarks.Contestant;
import io.dsched.benchmarks.NodeSpec;
import io.dsched.benchmarks.Probe;
import io.dsched.benchmarks.Provenance;
import io.dsched.benchmarks.RecurringPlan;
import io.dsched.benchmarks.Workload;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.atomic.AtomicLong;
import net.javacrumbs.shedlock.core.DefaultLockingTaskExecutor;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockingTaskExecutor;
import net.javacrumbs.shedlock.provider.jdbctemplate.JdbcTemplateLockProvider;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.scheduling.Trigger;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;
import org.springframework.scheduling.support.CronTrigger;

/**
 * Spring's {@code @Scheduled(cron = ...)} guarded by ShedLock 7.10.1 ({@code shedlock-spring},
 * {@code shedlock-provider-jdbc-template}), in its programmatic form; W2 only (ShedLock has no
 * one-off jobs, and a fire whose node dies is not run again).
 *
 * <ul>
 *   <li>Each node: a Spring {@link ThreadPoolTaskScheduler} with {@code spec.threads()} threads
 *       and the {@code plan.jobs()} tasks registered with {@code new CronTrigger(plan.cron(),
 *       ZoneOffset.UTC)}, which is what {@code @Scheduled(cron = ..., zone = "UTC")} registers.
 *       Every node runs every cron fire; each fire goes through {@code
 *       DefaultLockingTaskExecutor.executeWithLock(task, new LockConfiguration(now,
 *       RecurringPlan.jobName(j), lockAtMostFor, lockAtLeastFor))} over a {@code
 *       JdbcTemplateLockProvider} configured with {@code .withJdbcTemplate(new
 *       JdbcTemplate(pool)).withLockedByValue(spec.name()).usingDbTime()} (table {@code
 *       shedlock}, lock times from the database's clock); pool of {@code threads + 6}
 *       connections ({@code BenchDatabase.nodePool}, the same for every contestant). A node that does not get the lock skips the fire: that is ShedLock's model.
 *   <li>Lock times: {@code lockAtLeastFor = lockAtMostFor = period - min(1 s, period / 2)}, so 4 s
 *       for the 5 s period (1 s for a 2 s period). This follows ShedLock's README, whose example
 *       for a task every 15 min sets both to 14 min: {@code lockAtLeastFor} is what stops a second
 *       node from running the same fire when the body is short (it is a few milliseconds here),
 *       so it must cover the difference between the nodes' clocks plus the scheduler's start
 *       jitter (both well under a second on one machine, and {@code usingDbTime()} takes the lock
 *       times from the one database clock); and the lock must be gone before the next fire, with a
 *       margin (1 s) for the winning node having fired late, or that node's next fire would be
 *       skipped by everybody. {@code lockAtMostFor} only matters when the holder dies (the body
 *       never takes long), and ShedLock requires it to be at least {@code lockAtLeastFor}.
 *   <li>Scheduled time passed to {@code Probe.recurring}: the instant Spring's {@code CronTrigger}
 *       returned for this fire (what Spring keeps as {@code
 *       TriggerContext.lastScheduledExecution()}), captured by a {@link Trigger} that delegates
 *       to the {@code CronTrigger}. It is the most recent cron slot at or before now whenever a
 *       fire starts within its period, and stays right if Spring starts a fire a few
 *       milliseconds early.
 *   <li>{@code reset} drops and creates the {@code shedlock} table with the DDL of ShedLock's
 *       README ({@code TIMESTAMP(3)} columns on MariaDB, {@code TIMESTAMP} on PostgreSQL); {@code
 *       defineRecurring} is a no-op (the tasks are declared in code at start); {@code enqueue}
 *       throws {@link UnsupportedOperationException}.
 * </ul>
 */
public final class ShedLockContestant implements Contestant {

    /** Creates the contestant. */
    public ShedLockContestant() {}

    @Override
    public String name() {
        return "spring-scheduled-shedlock";
    }

    @Override
    public String library() {
        return "ShedLock "
                + Provenance.version(LockingTaskExecutor.class, "net.javacrumbs.shedlock", "shedlock-core")
                + " on Spring Framework " + org.springframework.core.SpringVersion.getVersion();
    }

    @Override
    public boolean supports(Workload workload) {
        return workload == Workload.W2_RECURRING;
    }

    @Override
    public void drop(BenchDatabase db) {
        db.executeIgnoringErrors(List.of("DROP TABLE shedlock"));
    }

    @Override
    public void reset(BenchDatabase db) {
        String create = db.isPostgres()
                ? "CREATE TABLE shedlock(name VARCHAR(64) NOT NULL, lock_until TIMESTAMP NOT NULL,"
                        + " locked_at TIMESTAMP NOT NULL, locked_by VARCHAR(255) NOT NULL, PRIMARY KEY (name))"
                : "CREATE TABLE shedlock(name VARCHAR(64) NOT NULL, lock_until TIMESTAMP(3) NOT NULL,"
                        + " locked_at TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP(3),"
                        + " locked_by VARCHAR(255) NOT NULL, PRIMARY KEY (name))";
        db.executeIgnoringErrors(List.of("DROP TABLE shedlock", create));
    }

    @Override
    public Duration enqueue(BenchDatabase db, int count) {
        throw new UnsupportedOperationException("ShedLock only guards recurring tasks");
    }

    @Override
    public long completedOneOffs(JdbcTemplate jdbc, int enqueued) {
        throw new UnsupportedOperationException("ShedLock only guards recurring tasks");
    }

    @Override
    public void defineRecurring(BenchDatabase db, RecurringPlan plan) {
        // the tasks are declared in code when a node starts
    }

    @Override
    public AutoCloseable start(BenchDatabase db, NodeSpec spec) {
        RecurringPlan plan = spec.recurring();
        if (plan == null) {
            throw new UnsupportedOperationException("ShedLock only guards recurring tasks");
        }
        HikariDataSource pool = db.nodePool("shedlock-" + spec.name(), spec.threads());
        ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
        List<ScheduledFuture<?>> fires = new ArrayList<>();
        try {
            LockingTaskExecutor executor = new DefaultLockingTaskExecutor(
                    new JdbcTemplateLockProvider(JdbcTemplateLockProvider.Configuration.builder()
                            .withJdbcTemplate(new JdbcTemplate(pool))
                            .withLockedByValue(spec.name())
                            .usingDbTime()
                            .build()));
            Duration period = Duration.ofSeconds(plan.periodSeconds());
            Duration lockFor = period.minus(min(Duration.ofSeconds(1), period.dividedBy(2)));
            scheduler.setPoolSize(spec.threads());
            scheduler.setThreadNamePrefix(spec.name() + "-scheduling-");
            scheduler.setWaitForTasksToCompleteOnShutdown(true);
            scheduler.setAwaitTerminationSeconds(10);
            scheduler.initialize();
            for (int j = 0; j < plan.jobs(); j++) {
                int job = j;
                String lockName = RecurringPlan.jobName(j);
                CronTrigger cron = new CronTrigger(plan.cron(), ZoneOffset.UTC);
                AtomicLong scheduledAt = new AtomicLong();
                Trigger trigger = (context) -> {
                    Instant next = cron.nextExecution(context);
                    if (next != null) {
                        scheduledAt.set(next.toEpochMilli());
                    }
                    return next;
                };
                Runnable body = () -> Probe.recurring(job, scheduledAt.get());
                fires.add(scheduler.schedule(
                        () -> executor.executeWithLock(
                                body, new LockConfiguration(Instant.now(), lockName, lockFor, lockFor)),
                        trigger));
            }
        } catch (RuntimeException ex) {
            scheduler.shutdown();
            pool.close();
            throw ex;
        }
        return () -> {
            try {
                // no further fires; those running finish (waitForTasksToCompleteOnShutdown)
                fires.forEach((fire) -> fire.cancel(false));
                scheduler.shutdown();
            } finally {
                pool.close();
            }
        };
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }
}
