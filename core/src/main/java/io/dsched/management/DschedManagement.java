package io.dsched.management;

import io.dsched.cluster.ClockSkew;
import io.dsched.cluster.NodeTable;
import io.dsched.deadletter.DeadLetters;
import io.dsched.definition.JobDefinition;
import io.dsched.definition.JobRegistry;
import io.dsched.definition.Schedule;
import io.dsched.engine.JobSynchronizer;
import io.dsched.jobs.JobScheduler;
import io.dsched.jobs.RuntimeJobRecord;
import io.dsched.jobs.RuntimeJobs;
import io.dsched.jobs.ScheduledJob;
import io.dsched.jobs.UnknownJobException;
import io.dsched.management.Views.ExecutionDetail;
import io.dsched.management.Views.Job;
import io.dsched.management.Views.JobDetail;
import io.dsched.management.Views.LastRun;
import io.dsched.management.Views.Minute;
import io.dsched.management.Views.Node;
import io.dsched.management.Views.Overview;
import io.dsched.management.Views.PageView;
import io.dsched.management.Views.SchedulePreview;
import io.dsched.management.Views.Stats;
import io.dsched.management.Views.Timeline;
import io.dsched.quartz.SpringCronTrigger;
import io.dsched.store.Cancellation;
import io.dsched.store.DeadLetter;
import io.dsched.store.DeadLetterStatus;
import io.dsched.store.ExecutionRecord;
import io.dsched.store.ExecutionRepository;
import io.dsched.store.ExecutionStatus;
import io.dsched.store.Pages;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.SimpleTrigger;
import org.quartz.Trigger;
import org.quartz.TriggerKey;
import org.quartz.impl.matchers.GroupMatcher;
import org.springframework.data.domain.Pageable;
import org.springframework.data.domain.Sort;
import org.springframework.data.jdbc.core.JdbcAggregateOperations;
import org.springframework.data.relational.core.query.Criteria;
import org.springframework.data.relational.core.query.Query;
import org.springframework.scheduling.support.CronExpression;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * What the management endpoint reads and changes, with the checks that keep bad input out.
 * Roles and the audit log are the endpoint's concern; this class trusts its caller to have
 * checked who asks.
 */
public class DschedManagement {

    private static final Set<ExecutionStatus> FINISHED = EnumSet.of(
            ExecutionStatus.SUCCEEDED,
            ExecutionStatus.FAILED,
            ExecutionStatus.TIMED_OUT,
            ExecutionStatus.DEAD_LETTERED);

    /** How many attempts the timeline reads at most. */
    static final int TIMELINE_SAMPLE = 50_000;

    private static final int PREVIEW_FIRES = 5;

    private final JobRegistry jobs;

    private final RuntimeJobs runtimeJobs;

    private final JobScheduler scheduler;

    private final Supplier<Scheduler> quartz;

    private final ExecutionRepository executions;

    private final JdbcAggregateOperations aggregates;

    private final DeadLetters deadLetters;

    private final NodeTable nodes;

    private final Duration nodeTimeout;

    private final ClockSkew skew;

    private final JobStatistics statistics;

    private final Function<Long, Optional<?>> logs;

    private final String nodeId;

    private final Clock clock;

    private final TransactionTemplate transactions;

    /**
     * Creates the facade.
     * @param jobs the jobs this node declares
     * @param runtimeJobs the jobs defined at run time
     * @param scheduler the job API
     * @param quartz this node's Quartz scheduler
     * @param executions the execution history
     * @param aggregates Spring Data JDBC's operations on dsched's tables
     * @param deadLetters the dead letters
     * @param nodes the nodes' check-ins
     * @param nodeTimeout how long a node may be silent and still count as alive
     * @param skew judges whether a node's clock offset is beyond bounds
     * @param statistics the jobs' statistics
     * @param logs finds what an attempt logged, by execution id
     * @param nodeId this node
     * @param clock the clock
     * @param transactions transactions on dsched's database
     */
    public DschedManagement(
            JobRegistry jobs,
            RuntimeJobs runtimeJobs,
            JobScheduler scheduler,
            Supplier<Scheduler> quartz,
            ExecutionRepository executions,
            JdbcAggregateOperations aggregates,
            DeadLetters deadLetters,
            NodeTable nodes,
            Duration nodeTimeout,
            ClockSkew skew,
            JobStatistics statistics,
            Function<Long, Optional<?>> logs,
            String nodeId,
            Clock clock,
            TransactionTemplate transactions) {
        this.jobs = jobs;
        this.runtimeJobs = runtimeJobs;
        this.scheduler = scheduler;
        this.quartz = quartz;
        this.executions = executions;
        this.aggregates = aggregates;
        this.deadLetters = deadLetters;
        this.nodes = nodes;
        this.nodeTimeout = nodeTimeout;
        this.skew = skew;
        this.statistics = statistics;
        this.logs = logs;
        this.nodeId = nodeId;
        this.clock = clock;
        this.transactions = transactions;
    }

    /**
     * Returns the cluster at a glance.
     * @param window the window the counts cover
     * @return the overview
     */
    public Overview overview(Duration window) {
        Map<ExecutionStatus, Long> counts = new EnumMap<>(ExecutionStatus.class);
        this.statistics
                .counts(this.clock.instant().minus(window))
                .values()
                .forEach((byStatus) -> byStatus.forEach((status, n) -> counts.merge(status, n, Long::sum)));
        List<Node> nodes = this.nodes.sightings().stream()
                .map((node) -> new Node(
                        node.nodeId(),
                        node.startedAt(),
                        node.lastSeen(),
                        node.isAlive(this.nodeTimeout),
                        node.nodeId().equals(this.nodeId),
                        (node.clockOffset() != null) ? node.clockOffset().toMillis() / 1000.0 : null,
                        node.clockOffset() != null && this.skew.isBeyondBounds(node.clockOffset())))
                .sorted(Comparator.comparing(Node::id))
                .toList();
        return new Overview(
                this.nodeId,
                nodes,
                count(ExecutionStatus.RUNNING),
                count(ExecutionStatus.SCHEDULED) + count(ExecutionStatus.RETRY_SCHEDULED),
                this.deadLetters.openCount(),
                window,
                counts,
                names().size());
    }

    /**
     * Returns the cluster's attempts of a recent window minute by minute: how many started, how
     * many of them succeeded, and how late scheduled fires started.
     * @param window the window, ending with the current minute
     * @return the timeline
     */
    public Timeline timeline(Duration window) {
        Instant to = this.clock.instant().truncatedTo(ChronoUnit.MINUTES).plus(Duration.ofMinutes(1));
        int count = (int) Math.max(1, window.toMinutes());
        Instant from = to.minus(Duration.ofMinutes(count));
        List<JobStatistics.Started> attempts = this.statistics.startedSince(from, TIMELINE_SAMPLE);
        List<List<JobStatistics.Started>> byMinute = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            byMinute.add(new ArrayList<>());
        }
        for (JobStatistics.Started attempt : attempts) {
            int index = (int) Duration.between(from, attempt.startedAt()).toMinutes();
            if (index >= 0 && index < count) {
                byMinute.get(index).add(attempt);
            }
        }
        List<Minute> minutes = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            minutes.add(minute(from.plus(Duration.ofMinutes(i)), byMinute.get(i)));
        }
        return new Timeline(from, to, minutes, this.deadLetters.openCount(), attempts.size() == TIMELINE_SAMPLE);
    }

    private static Minute minute(Instant at, List<JobStatistics.Started> attempts) {
        long succeeded = attempts.stream()
                .filter((a) -> a.status() == ExecutionStatus.SUCCEEDED)
                .count();
        long failed = attempts.stream()
                .filter((a) -> FINISHED.contains(a.status()) && a.status() != ExecutionStatus.SUCCEEDED)
                .count();
        List<Long> lags = attempts.stream()
                .filter((a) -> "SCHEDULE".equals(a.origin()) && a.attempt() == 1)
                .map((a) -> Math.max(
                        0, Duration.between(a.scheduledAt(), a.startedAt()).toMillis()))
                .sorted()
                .toList();
        return new Minute(
                at,
                attempts.size(),
                succeeded,
                failed,
                (succeeded + failed > 0) ? (double) succeeded / (succeeded + failed) : null,
                percentile(lags, 0.50),
                percentile(lags, 0.95));
    }

    private static Duration percentile(List<Long> sorted, double rank) {
        if (sorted.isEmpty()) {
            return null;
        }
        int index = (int) Math.ceil(rank * sorted.size()) - 1;
        return Duration.ofMillis(sorted.get(Math.max(0, index)));
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

    /**
     * Lists the scheduled jobs: those this node declares and those defined at run time.
     * @param window the window their statistics cover
     * @return the jobs, by name
     */
    public List<Job> jobs(Duration window) {
        Instant since = this.clock.instant().minus(window);
        Map<String, Map<ExecutionStatus, Long>> counts = this.statistics.counts(since);
        List<Job> views = new ArrayList<>();
        for (String name : names()) {
            views.add(view(name, window, since, counts.getOrDefault(name, Map.of())));
        }
        return views;
    }

    /**
     * Returns one job with a page of its attempts.
     * @param name the job
     * @param window the window its statistics cover
     * @param status only attempts in this state, or {@code null}
     * @param page which page of attempts
     * @return the job
     */
    public JobDetail job(String name, Duration window, ExecutionStatus status, Pageable page) {
        existing(name);
        Instant since = this.clock.instant().minus(window);
        Job job = view(name, window, since, this.statistics.counts(since).getOrDefault(name, Map.of()));
        return new JobDetail(job, executions(name, status, page));
    }

    /**
     * Lists attempts, newest first.
     * @param job only this job's, or {@code null}
     * @param status only those in this state, or {@code null}
     * @param page which page
     * @return the page
     */
    public PageView<ExecutionRecord> executions(String job, ExecutionStatus status, Pageable page) {
        Criteria criteria = Criteria.empty();
        if (job != null) {
            criteria = criteria.and("jobName").is(job);
        }
        if (status != null) {
            criteria = criteria.and("status").is(status.name());
        }
        return PageView.of(
                Pages.read(this.aggregates, ExecutionRecord.class, criteria, Sort.by(Sort.Order.desc("id")), page));
    }

    /**
     * Returns one attempt with the other attempts at its fire, its dead letter and its log.
     * @param id the execution id
     * @return the attempt
     * @throws ManagementException (404) if there is no such attempt
     */
    public ExecutionDetail execution(long id) {
        ExecutionRecord execution = this.executions
                .findById(id)
                .orElseThrow(() -> ManagementException.notFound("No execution with id " + id));
        List<ExecutionRecord> attempts = this.executions.findByIdempotencyKey(execution.idempotencyKey()).stream()
                .sorted(Comparator.comparingInt(ExecutionRecord::attempt).thenComparing(ExecutionRecord::id))
                .toList();
        DeadLetter letter = this.aggregates
                .findAll(Query.query(Criteria.where("idempotencyKey").is(execution.idempotencyKey())), DeadLetter.class)
                .stream()
                .max(Comparator.comparing(DeadLetter::id))
                .orElse(null);
        return new ExecutionDetail(
                execution,
                zoneOf(execution.jobName()),
                attempts,
                letter,
                this.logs.apply(id).orElse(null));
    }

    /**
     * Pauses a job on every node.
     * @param job the job
     * @return what changed
     * @throws ManagementException (409) if it is paused already
     */
    public Change pause(String job) {
        existing(job);
        if (this.scheduler.isPaused(job)) {
            throw ManagementException.conflict("'" + job + "' is paused already");
        }
        this.scheduler.pause(job);
        return new Change(job, Map.of("paused", false), Map.of("paused", true));
    }

    /**
     * Resumes a paused job on every node.
     * @param job the job
     * @return what changed
     * @throws ManagementException (409) if it is not paused
     */
    public Change resume(String job) {
        existing(job);
        if (!this.scheduler.isPaused(job)) {
            throw ManagementException.conflict("'" + job + "' is not paused");
        }
        this.scheduler.resume(job);
        return new Change(job, Map.of("paused", true), Map.of("paused", false));
    }

    /**
     * Runs a job once now, outside its schedule.
     * @param job the job
     * @param params parameters for this run (jobs defined at run time only), or {@code null}
     * @return what changed: the new attempt
     */
    public Change trigger(String job, Object params) {
        existing(job);
        if (params != null && this.runtimeJobs.record(job).isEmpty()) {
            throw ManagementException.conflict(
                    "'" + job + "' is declared in code and takes no parameters; only jobs defined at run time do");
        }
        ScheduledJob run = badInputAs("params", () -> this.scheduler.trigger(job, params));
        Map<String, Object> after = new LinkedHashMap<>();
        after.put("executionId", run.executionId());
        after.put("idempotencyKey", run.idempotencyKey());
        return new Change(job, null, after);
    }

    /**
     * Cancels an attempt: one that waits is cancelled at once, one that runs is asked to stop.
     * @param id the execution id
     * @param actor who asks, named in the attempt's reason
     * @return what changed
     * @throws ManagementException (404) for an unknown attempt, (409) for one that has ended
     *     otherwise than cancelled
     */
    public Change cancel(long id, String actor) {
        Cancellation done = this.scheduler.cancel(id, actor);
        String target = String.valueOf(id);
        Map<String, Object> before = (done.before() != null) ? Map.of("status", done.before()) : null;
        return switch (done.result()) {
            case NOT_FOUND -> throw ManagementException.notFound("No execution with id " + id);
            case ALREADY_ENDED ->
                throw ManagementException.conflict(
                        "Execution " + id + " has ended already, " + done.before() + "; there is nothing to cancel");
            case CANCELLED, ALREADY_CANCELLED ->
                new Change(target, before, Map.of("status", ExecutionStatus.CANCELLED));
            case STOP_REQUESTED -> {
                Map<String, Object> after = new LinkedHashMap<>();
                after.put("status", ExecutionStatus.RUNNING);
                after.put("stopRequested", true);
                yield new Change(target, before, after);
            }
        };
    }

    /**
     * Changes a job's schedule on every node.
     * @param job the job
     * @param input the new schedule
     * @return what changed
     */
    public Change reschedule(String job, ScheduleInput input) {
        existing(job);
        Schedule schedule = input.toSchedule();
        if (this.jobs
                        .definition(job)
                        .filter((d) -> d.schedule() instanceof Schedule.FixedDelay)
                        .isPresent()
                && !(schedule instanceof Schedule.Cron)) {
            throw ManagementException.badInput("fixedRate", "'" + job + "' runs on a fixed delay; give it a cron");
        }
        String before = this.scheduler.scheduleOf(job);
        badInputAs("schedule", () -> {
            this.scheduler.reschedule(job, schedule);
            return null;
        });
        return new Change(job, Map.of("schedule", before), Map.of("schedule", this.scheduler.scheduleOf(job)));
    }

    /**
     * Changes the parameters of a job defined at run time, on every node.
     * @param job the job
     * @param params the new parameters
     * @return what changed
     */
    public Change params(String job, Object params) {
        existing(job);
        RuntimeJobRecord current = this.runtimeJobs
                .record(job)
                .orElseThrow(() -> ManagementException.conflict(
                        "'" + job + "' is declared in code and has no parameters; only jobs defined at run time do"));
        if (params == null) {
            throw ManagementException.badInput("params", "Give the new parameters");
        }
        // values read masked and sent back unchanged keep what they were
        Object kept = badInputAs("params", () -> KeptSecrets.restore(params, current.params()));
        badInputAs("params", () -> {
            this.scheduler.update(job, null, kept);
            return null;
        });
        String after =
                this.runtimeJobs.record(job).map(RuntimeJobRecord::params).orElse("");
        return new Change(job, Map.of("params", String.valueOf(current.params())), Map.of("params", after));
    }

    /**
     * Replays open dead letters, all or none.
     * @param ids the letters
     * @param actor who replays them
     * @param reason why
     * @return what changed: the new attempt of each letter
     * @throws ManagementException (404) for an unknown letter, (409) for one that is not open;
     *     nothing is replayed then
     */
    public Change replay(List<Long> ids, String actor, String reason) {
        List<Long> letters = checkOpen(ids);
        Map<Long, Long> replays = new LinkedHashMap<>();
        inOneTransaction(() -> {
            for (long id : letters) {
                ExecutionRecord attempt = this.deadLetters
                        .replay(id, actor, reason)
                        .orElseThrow(() -> ManagementException.conflict("Dead letter " + id + " is no longer open"));
                replays.put(id, attempt.id());
            }
        });
        return new Change(join(letters), Map.of("status", DeadLetterStatus.OPEN), Map.of("replays", replays));
    }

    /**
     * Discards open dead letters, all or none.
     * @param ids the letters
     * @param actor who discards them
     * @param reason why; required
     * @return what changed
     * @throws ManagementException (400) without a reason, (404) for an unknown letter, (409) for
     *     one that is not open; nothing is discarded then
     */
    public Change discard(List<Long> ids, String actor, String reason) {
        if (reason == null || reason.isBlank()) {
            throw ManagementException.badInput("reason", "A reason is required to discard a dead letter");
        }
        List<Long> letters = checkOpen(ids);
        inOneTransaction(() -> {
            for (long id : letters) {
                if (!this.deadLetters.discard(id, actor, reason)) {
                    throw ManagementException.conflict("Dead letter " + id + " is no longer open");
                }
            }
        });
        return new Change(
                join(letters), Map.of("status", DeadLetterStatus.OPEN), Map.of("status", DeadLetterStatus.DISCARDED));
    }

    private void inOneTransaction(Runnable change) {
        this.transactions.executeWithoutResult((status) -> change.run());
    }

    private static String join(List<Long> ids) {
        return ids.stream().map(String::valueOf).collect(Collectors.joining(","));
    }

    private List<Long> checkOpen(List<Long> given) {
        List<Long> ids = given.stream().distinct().toList();
        if (ids.isEmpty()) {
            throw ManagementException.badInput("ids", "Name at least one dead letter");
        }
        for (long id : ids) {
            DeadLetter letter = this.deadLetters
                    .find(id)
                    .orElseThrow(() -> ManagementException.notFound("No dead letter with id " + id));
            if (letter.status() != DeadLetterStatus.OPEN) {
                throw ManagementException.conflict(
                        "Dead letter " + id + " is " + letter.status() + " already, by " + letter.actedBy());
            }
        }
        return ids;
    }

    private Job view(String name, Duration window, Instant since, Map<ExecutionStatus, Long> counts) {
        Optional<RuntimeJobRecord> runtime = this.runtimeJobs.record(name);
        Schedule schedule = runtime.map(RuntimeJobRecord::schedule)
                .orElseGet(() ->
                        this.jobs.definition(name).map(JobDefinition::schedule).orElse(null));
        Trigger trigger = trigger(name);
        String cron = null;
        String zone = null;
        Duration fixedRate = null;
        Duration fixedDelay = null;
        if (trigger instanceof SpringCronTrigger spring) {
            cron = spring.getExpression();
            zone = zone(trigger);
        } else if (trigger instanceof SimpleTrigger simple && simple.getRepeatCount() != 0) {
            fixedRate = Duration.ofMillis(simple.getRepeatInterval());
        } else if (schedule instanceof Schedule.FixedDelay delay) {
            fixedDelay = delay.delay();
        }
        long succeeded = counts.getOrDefault(ExecutionStatus.SUCCEEDED, 0L);
        long failed = counts.getOrDefault(ExecutionStatus.FAILED, 0L)
                + counts.getOrDefault(ExecutionStatus.TIMED_OUT, 0L)
                + counts.getOrDefault(ExecutionStatus.DEAD_LETTERED, 0L);
        long runs = succeeded + failed;
        Stats stats = new Stats(
                window,
                runs,
                succeeded,
                failed,
                (runs > 0) ? (double) succeeded / runs : null,
                this.statistics.p95(name, since));
        LastRun last = this.executions.findLatestByJobName(name, 10).stream()
                .filter((run) -> run.finishedAt() != null && FINISHED.contains(run.status()))
                .findFirst()
                .map((run) -> new LastRun(run.id(), run.status(), run.finishedAt()))
                .orElse(null);
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
                last,
                stats);
    }

    private Trigger trigger(String name) {
        try {
            Scheduler quartz = this.quartz.get();
            Trigger declared = quartz.getTrigger(JobSynchronizer.triggerKey(name));
            return (declared != null) ? declared : quartz.getTrigger(TriggerKey.triggerKey(name, RuntimeJobs.GROUP));
        } catch (SchedulerException ex) {
            throw new IllegalStateException("Could not read the trigger of '" + name + "': " + ex.getMessage(), ex);
        }
    }

    /** The zone of a job's cron; {@code null} when it has none, or when its trigger cannot be read now. */
    private String zoneOf(String job) {
        try {
            return zone(trigger(job));
        } catch (IllegalStateException ex) {
            return null;
        }
    }

    /** The zone of a job's cron trigger; {@code null} without a trigger, for a fixed rate or a default zone. */
    private static String zone(Trigger trigger) {
        return (trigger instanceof SpringCronTrigger spring && spring.getZone() != null)
                ? spring.getZone().getId()
                : null;
    }

    private boolean isPaused(String name) {
        try {
            return this.scheduler.isPaused(name);
        } catch (UnknownJobException ex) {
            return false;
        }
    }

    private TreeSet<String> names() {
        // a declared job that the newest deployment removed has no job in the store: gone here
        // too, on a node of an older deployment as well
        TreeSet<String> names = new TreeSet<>(this.jobs.names());
        try {
            names.retainAll(this.quartz.get().getJobKeys(GroupMatcher.jobGroupEquals(JobSynchronizer.GROUP)).stream()
                    .map(JobKey::getName)
                    .collect(java.util.stream.Collectors.toSet()));
        } catch (SchedulerException ex) {
            throw new IllegalStateException("Could not read the jobs in the store: " + ex.getMessage(), ex);
        }
        names.addAll(this.runtimeJobs.names());
        return names;
    }

    private void existing(String job) {
        if (!names().contains(job)) {
            throw ManagementException.notFound("No scheduled job named '" + job + "'");
        }
    }

    private long count(ExecutionStatus status) {
        return this.aggregates.count(Query.query(Criteria.where("status").is(status.name())), ExecutionRecord.class);
    }

    private static <T> T badInputAs(String field, Supplier<T> change) {
        try {
            return change.get();
        } catch (UnknownJobException ex) {
            throw ManagementException.notFound(ex.getMessage());
        } catch (IllegalArgumentException ex) {
            throw ManagementException.badInput(field, ex.getMessage());
        }
    }
}
