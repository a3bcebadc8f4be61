package io.dsched.internal.management;

import io.dsched.definition.Schedule;
import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.ExecutionStatus;
import io.dsched.internal.execution.ShardedFire;
import io.dsched.internal.execution.Sharding;
import io.dsched.internal.management.views.Fire;
import io.dsched.internal.management.views.FireDetail;
import io.dsched.internal.management.views.FireShard;
import io.dsched.internal.management.views.Job;
import io.dsched.internal.management.views.JobDetail;
import io.dsched.internal.management.views.LastRun;
import io.dsched.internal.management.views.SchedulePreview;
import io.dsched.internal.management.views.Shards;
import io.dsched.internal.management.views.Stats;
import io.dsched.internal.store.ExecutionRepository;
import io.dsched.jobs.JobScheduler;
import io.dsched.jobs.RuntimeJobRecord;
import io.dsched.jobs.UnknownJobException;
import io.dsched.quartz.SpringCronTrigger;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.quartz.SimpleTrigger;
import org.quartz.Trigger;
import org.springframework.data.domain.Pageable;
import org.springframework.scheduling.support.CronExpression;

/** The scheduled jobs with their schedules and statistics, as the management endpoint reads them. */
public class JobViews {

    private static final int PREVIEW_FIRES = 5;

    /** How many of a sharded job's latest fires its page shows as wholes. */
    private static final int SHARDED_FIRES = 10;

    private final ManagedJobs jobs;

    private final JobScheduler scheduler;

    private final ExecutionRepository executions;

    private final JobStatistics statistics;

    private final ExecutionViews executionViews;

    private final BiFunction<String, Integer, List<ShardedFire>> shardedFires;

    private final Function<String, Optional<Shards>> shards;

    private final BiFunction<String, Instant, List<ExecutionRecord>> fireAttempts;

    private final Clock clock;

    /**
     * Creates the views.
     * @param jobs the jobs management knows
     * @param scheduler the job API
     * @param executions the execution history
     * @param statistics the jobs' statistics
     * @param executionViews the attempts, for a job's page of them
     * @param shardedFires reads a job's latest fires as wholes, at most so many
     * @param shards reads the shards a job's fires are split into now, if it is sharded
     * @param fireAttempts reads the attempts of a job's shards at one fire
     * @param clock the clock
     */
    public JobViews(
            ManagedJobs jobs,
            JobScheduler scheduler,
            ExecutionRepository executions,
            JobStatistics statistics,
            ExecutionViews executionViews,
            BiFunction<String, Integer, List<ShardedFire>> shardedFires,
            Function<String, Optional<Shards>> shards,
            BiFunction<String, Instant, List<ExecutionRecord>> fireAttempts,
            Clock clock) {
        this.shards = shards;
        this.fireAttempts = fireAttempts;
        this.jobs = jobs;
        this.scheduler = scheduler;
        this.executions = executions;
        this.statistics = statistics;
        this.executionViews = executionViews;
        this.shardedFires = shardedFires;
        this.clock = clock;
    }

    /**
     * Lists the scheduled jobs: those this node declares and those defined at run time.
     * @param window the window their statistics cover
     * @return the jobs, by name
     */
    public List<Job> jobs(Duration window) {
        Instant since = this.clock.instant().minus(window);
        Map<String, Map<ExecutionStatus, Long>> counts = this.statistics.counts(since);
        Map<String, Long> letters = this.statistics.openDeadLetters();
        List<Job> views = new ArrayList<>();
        for (String name : this.jobs.names()) {
            views.add(view(name, window, since, counts.getOrDefault(name, Map.of()), letters.getOrDefault(name, 0L)));
        }
        return views;
    }

    /**
     * Returns one job with a page of its attempts and, if it is sharded, its latest fires.
     * @param name the job
     * @param window the window its statistics cover
     * @param status only attempts in this state, or {@code null}
     * @param page which page of attempts
     * @return the job
     */
    public JobDetail job(String name, Duration window, ExecutionStatus status, Pageable page) {
        this.jobs.existing(name);
        Instant since = this.clock.instant().minus(window);
        Job job = view(
                name,
                window,
                since,
                this.statistics.counts(since).getOrDefault(name, Map.of()),
                this.statistics.openDeadLetters().getOrDefault(name, 0L));
        return new JobDetail(
                job,
                this.executionViews.executions(name, status, page),
                this.shardedFires.apply(name, SHARDED_FIRES).stream()
                        .map(Fire::of)
                        .toList(),
                this.shards.apply(name).orElse(null));
    }

    /**
     * Returns one fire of a sharded or broadcast job with each of its shards, as its latest attempt
     * stands.
     * @param name the job
     * @param scheduledAt the fire's time
     * @return the fire
     * @throws ManagementException (404) for an unknown job, or a time at which it has no sharded fire
     */
    public FireDetail fire(String name, Instant scheduledAt) {
        this.jobs.existing(name);
        List<ExecutionRecord> attempts = this.fireAttempts.apply(name, scheduledAt);
        List<ShardedFire> fire = ShardedFire.of(name, attempts);
        if (fire.isEmpty()) {
            throw ManagementException.notFound("'" + name + "' has no fire split into shards at " + scheduledAt);
        }
        Map<Integer, List<ExecutionRecord>> byShard = new TreeMap<>();
        for (ExecutionRecord attempt : attempts) {
            Sharding.Shard shard = Sharding.shardOf(attempt.idempotencyKey());
            if (shard != null) {
                byShard.computeIfAbsent(shard.index(), (index) -> new ArrayList<>())
                        .add(attempt);
            }
        }
        List<FireShard> shards = new ArrayList<>();
        byShard.forEach((index, tries) -> {
            ExecutionRecord latest = tries.stream()
                    .max(Comparator.comparingInt(ExecutionRecord::attempt))
                    .orElseThrow();
            shards.add(new FireShard(
                    index,
                    tries.size(),
                    latest.status(),
                    latest.nodeId(),
                    latest.startedAt(),
                    latest.finishedAt(),
                    latest.id()));
        });
        return new FireDetail(name, Fire.of(fire.get(0)), shards);
    }

    /**
     * Checks a cron expression and returns its next five fire times.
     * @param input the cron and its zone (a fixed rate is refused)
     * @return the fire times
     * @throws ManagementException (400) naming the field at fault and why
     */
    public SchedulePreview preview(ScheduleInput input) {
        if (input.cron() == null) {
            throw ManagementException.badInput("cron", "Give a cron expression");
        }
        Schedule.Cron schedule = (Schedule.Cron) input.toSchedule();
        ZoneId zone = (schedule.zone() != null) ? schedule.zone() : ZoneId.systemDefault();
        CronExpression cron = CronExpression.parse(input.cron());
        List<Instant> next = new ArrayList<>();
        ZonedDateTime at = ZonedDateTime.ofInstant(this.clock.instant(), zone);
        while (next.size() < PREVIEW_FIRES) {
            at = cron.next(at);
            if (at == null) {
                break;
            }
            next.add(at.toInstant());
        }
        return new SchedulePreview(input.cron(), zone.getId(), next);
    }

    private Job view(
            String name, Duration window, Instant since, Map<ExecutionStatus, Long> counts, long openDeadLetters) {
        Optional<RuntimeJobRecord> runtime = this.jobs.runtime(name);
        Schedule schedule = runtime.map(RuntimeJobRecord::schedule)
                .orElseGet(() -> this.jobs.declaredSchedule(name).orElse(null));
        Trigger trigger = this.jobs.trigger(name);
        String cron = null;
        String zone = null;
        Duration fixedRate = null;
        Duration fixedDelay = null;
        if (trigger instanceof SpringCronTrigger spring) {
            cron = spring.getExpression();
            zone = ManagedJobs.zone(trigger);
        } else if (trigger instanceof SimpleTrigger simple && simple.getRepeatCount() != 0) {
            fixedRate = Duration.ofMillis(simple.getRepeatInterval());
        } else if (schedule instanceof Schedule.FixedDelay delay) {
            fixedDelay = delay.delay();
        }
        return new Job(
                name,
                runtime.isPresent() ? "runtime" : "declared",
                runtime.map(RuntimeJobRecord::handler).orElse(null),
                (trigger != null) ? this.scheduler.scheduleOf(name) : (schedule != null) ? schedule.describe() : null,
                cron,
                zone,
                fixedRate,
                fixedDelay,
                runtime.map(RuntimeJobRecord::params).orElse(null),
                (trigger != null && trigger.getNextFireTime() != null)
                        ? trigger.getNextFireTime().toInstant()
                        : null,
                isPaused(name),
                lastRun(name),
                stats(name, window, since, counts),
                openDeadLetters);
    }

    private Stats stats(String name, Duration window, Instant since, Map<ExecutionStatus, Long> counts) {
        long succeeded = counts.getOrDefault(ExecutionStatus.SUCCEEDED, 0L);
        long failed = counts.getOrDefault(ExecutionStatus.FAILED, 0L)
                + counts.getOrDefault(ExecutionStatus.TIMED_OUT, 0L)
                + counts.getOrDefault(ExecutionStatus.DEAD_LETTERED, 0L);
        long runs = succeeded + failed;
        return new Stats(
                window,
                runs,
                succeeded,
                failed,
                (runs > 0) ? (double) succeeded / runs : null,
                this.statistics.p95(name, since));
    }

    private LastRun lastRun(String name) {
        return this.executions.findLatestByJobName(name, 10).stream()
                .filter((run) -> run.finishedAt() != null && JobStatistics.FINISHED_STATES.contains(run.status()))
                .findFirst()
                .map((run) -> new LastRun(run.id(), run.status(), run.finishedAt()))
                .orElse(null);
    }

    private boolean isPaused(String name) {
        try {
            return this.scheduler.isPaused(name);
        } catch (UnknownJobException ex) {
            return false;
        }
    }
}
