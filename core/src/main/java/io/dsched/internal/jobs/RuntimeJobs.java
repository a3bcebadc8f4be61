package io.dsched.internal.jobs;

import io.dsched.engine.DschedQuartzJob;
import io.dsched.execution.JobContext;
import io.dsched.internal.definition.JobDefinition;
import io.dsched.internal.engine.Triggers;
import io.dsched.internal.execution.JobTarget;
import io.dsched.internal.execution.JobTargets;
import io.dsched.internal.handler.HandlerDefinition;
import io.dsched.internal.handler.HandlerRegistry;
import io.dsched.internal.retry.RetryPolicy;
import io.dsched.internal.store.ClusterTables;
import io.dsched.internal.store.ExecutionRepository;
import io.dsched.jobs.RuntimeJobRecord;
import io.dsched.jobs.UnknownJobException;
import io.dsched.retry.NonRetryableJobException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import javax.sql.DataSource;
import org.quartz.JobBuilder;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.TriggerKey;
import org.quartz.impl.matchers.GroupMatcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.jdbc.core.JdbcAggregateOperations;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The recurring jobs defined at run time, kept in {@code dsched_job} and fired through Quartz
 * triggers of the group {@value #GROUP}. A node runs those whose handler it declares.
 */
public final class RuntimeJobs implements JobTargets, AutoCloseable {

    /** The Quartz group of recurring jobs defined at run time. */
    public static final String GROUP = "dsched-runtime";

    private static final Logger logger = LoggerFactory.getLogger(RuntimeJobs.class);

    /** How long the jobs read are used before they are read again, for changes made elsewhere. */
    private static final long CACHE_MILLIS = 5000;

    /** How old the jobs read may be when a job is not among them and they are read again. */
    private static final long MISS_RELOAD_MILLIS = 200;

    private static final RetryPolicy NO_RETRY =
            new RetryPolicy(1, Duration.ZERO, 1, Duration.ZERO, Duration.ZERO, List.of(), List.of());

    private final JdbcAggregateOperations aggregates;

    private final JdbcTemplate jdbc;

    private final ClusterTables tables;

    private final ExecutionRepository executions;

    private final TransactionTemplate transactions;

    private final HandlerRegistry handlers;

    private final Clock clock;

    private volatile Map<String, RuntimeJobRecord> cache = Map.of();

    private volatile Names names = new Names(null, Set.of());

    private volatile long loadedAt;

    private volatile boolean stale = true;

    private final AtomicBoolean refreshing = new AtomicBoolean();

    private final ExecutorService refresher = Executors.newSingleThreadExecutor((task) -> {
        Thread thread = new Thread(task, "dsched-runtime-jobs");
        thread.setDaemon(true);
        return thread;
    });

    /**
     * Creates the runtime jobs.
     * @param aggregates Spring Data JDBC operations on dsched's DataSource
     * @param dataSource dsched's DataSource
     * @param tables the cluster's tables
     * @param executions the attempts, whose waiting ones a deletion cancels
     * @param transactions transactions on dsched's DataSource
     * @param handlers the handlers this node declares
     * @param clock the clock
     */
    public RuntimeJobs(
            JdbcAggregateOperations aggregates,
            DataSource dataSource,
            ClusterTables tables,
            ExecutionRepository executions,
            TransactionTemplate transactions,
            HandlerRegistry handlers,
            Clock clock) {
        this.aggregates = aggregates;
        this.jdbc = new JdbcTemplate(dataSource);
        this.tables = tables;
        this.executions = executions;
        this.transactions = transactions;
        this.handlers = handlers;
        this.clock = clock;
    }

    @Override
    public Optional<JobTarget> find(String name) {
        RuntimeJobRecord cached = jobs().get(name);
        // not among those read: perhaps created on another node since
        RuntimeJobRecord job = (cached != null || this.clock.millis() - this.loadedAt <= MISS_RELOAD_MILLIS)
                ? cached
                : load().get(name);
        if (job == null) {
            return Optional.empty();
        }
        return this.handlers
                .handler(job.handler())
                .map((handler) -> new JobTarget(
                        job.name(),
                        handler.retry(),
                        handler.timeout(),
                        true,
                        null,
                        null,
                        (context, payload) -> invoke(handler, job, context, payload)));
    }

    /**
     * Runs a job through its handler. A run that fails after its job was deleted is not retried:
     * a retry would wait for a job that no node fires any more, so the failure ends the fire.
     */
    private void invoke(HandlerDefinition handler, RuntimeJobRecord job, JobContext context, String payload)
            throws Exception {
        try {
            handler.invoker().invoke(context, (payload != null) ? payload : job.params());
        } catch (Exception ex) {
            if (deleted(job.name(), ex)) {
                throw new NonRetryableJobException("runtime job '" + job.name() + "' was deleted while it ran", ex);
            }
            throw ex;
        }
    }

    // a failure to look is not the job's failure: the job's own exception goes on, as retryable
    private boolean deleted(String name, Exception failure) {
        try {
            return record(name).isEmpty();
        } catch (RuntimeException ex) {
            failure.addSuppressed(ex);
            return false;
        }
    }

    @Override
    public Set<String> names() {
        // worked out once for each read of the jobs: the one-off queue asks for them on every poll
        Map<String, RuntimeJobRecord> jobs = jobs();
        Names known = this.names;
        if (known.of() != jobs) {
            Set<String> names = new TreeSet<>();
            jobs.values().stream()
                    .filter((job) -> this.handlers.handler(job.handler()).isPresent())
                    .forEach((job) -> names.add(job.name()));
            known = new Names(jobs, Collections.unmodifiableSet(names));
            this.names = known;
        }
        return known.names();
    }

    /**
     * Reads a job afresh.
     * @param name the job's name
     * @return the job, or empty
     */
    public Optional<RuntimeJobRecord> record(String name) {
        return Optional.ofNullable(this.aggregates.findById(name, RuntimeJobRecord.class));
    }

    void insert(RuntimeJobRecord job) {
        this.aggregates.insert(job);
        invalidate();
    }

    /**
     * Changes a job, and its trigger with it when its schedule changes, in a transaction that
     * holds the job's row from the read to the commit: two changes of one job made at once on two
     * nodes take turns, each from what the other wrote, and a trigger that cannot be written
     * leaves the stored job as it was. Should the commit fail after the trigger was written, the
     * trigger is put back as the job was.
     * @param name the job
     * @param change makes the changed job from the stored one
     * @param trigger writes the trigger of a job
     * @throws UnknownJobException if there is no such job
     */
    void change(String name, UnaryOperator<RuntimeJobRecord> change, Consumer<RuntimeJobRecord> trigger) {
        AtomicReference<RuntimeJobRecord> replaced = new AtomicReference<>();
        try {
            this.transactions.executeWithoutResult((status) -> {
                RuntimeJobRecord current = locked(name);
                RuntimeJobRecord updated = change.apply(current);
                this.aggregates.update(updated);
                if (!updated.schedule().equals(current.schedule())) {
                    trigger.accept(updated);
                    replaced.set(current);
                }
            });
        } catch (RuntimeException ex) {
            RuntimeJobRecord before = replaced.get();
            if (before != null) {
                restore(name, () -> trigger.accept(before), ex);
            }
            throw ex;
        } finally {
            invalidate();
        }
    }

    private RuntimeJobRecord locked(String name) {
        // the row's lock first, then the row: Spring Data's reads take no lock
        if (this.jdbc
                .queryForList(
                        this.tables.sql("SELECT name FROM dsched_job WHERE name = ? FOR UPDATE"), String.class, name)
                .isEmpty()) {
            throw new UnknownJobException("No job named '" + name + "' was defined at run time");
        }
        return this.aggregates.findById(name, RuntimeJobRecord.class);
    }

    private static void restore(String name, Runnable restore, RuntimeException cause) {
        try {
            restore.run();
        } catch (RuntimeException ex) {
            cause.addSuppressed(ex);
            logger.error(
                    "Could not put back the trigger of runtime job '{}' after its change failed: it fires on the new"
                            + " schedule while the stored one is the old, until the job is changed again",
                    name,
                    ex);
        }
    }

    /** Deletes a job and cancels its waiting attempts, in one transaction. */
    void delete(String name, Instant now) {
        this.transactions.executeWithoutResult((status) -> {
            this.aggregates.deleteById(name, RuntimeJobRecord.class);
            this.executions.cancelWaiting(name, now, "job deleted");
        });
        invalidate();
    }

    /**
     * Writes a job's Quartz job and trigger, replacing any earlier ones.
     * @param scheduler the Quartz scheduler
     * @param job the job
     * @throws SchedulerException if the store cannot be written
     */
    void schedule(Scheduler scheduler, RuntimeJobRecord job) throws SchedulerException {
        JobDefinition definition = definition(job);
        scheduler.addJob(
                JobBuilder.newJob(DschedQuartzJob.class)
                        .withIdentity(job.name(), GROUP)
                        .withDescription("runtime job of handler " + job.handler())
                        .storeDurably()
                        .build(),
                true);
        TriggerKey key = TriggerKey.triggerKey(job.name(), GROUP);
        org.quartz.Trigger trigger = Triggers.forJob(definition, definition.schedule(), this.clock, GROUP);
        if (scheduler.checkExists(key)) {
            scheduler.rescheduleJob(key, trigger);
        } else {
            scheduler.scheduleJob(trigger);
        }
    }

    /**
     * Repairs the store at start-up: every job has its trigger, and no trigger outlives its job.
     * @param scheduler the Quartz scheduler
     * @throws SchedulerException if the store cannot be read or written
     */
    public void synchronize(Scheduler scheduler) throws SchedulerException {
        Map<String, RuntimeJobRecord> jobs = load();
        for (RuntimeJobRecord job : jobs.values()) {
            if (!scheduler.checkExists(TriggerKey.triggerKey(job.name(), GROUP))) {
                logger.info("Restoring the trigger of runtime job '{}'", job.name());
                schedule(scheduler, job);
            }
        }
        for (JobKey key : scheduler.getJobKeys(GroupMatcher.jobGroupEquals(GROUP))) {
            if (!jobs.containsKey(key.getName())) {
                logger.info("Removing the trigger of deleted runtime job '{}'", key.getName());
                scheduler.deleteJob(key);
            }
        }
    }

    JobDefinition definition(RuntimeJobRecord job) {
        Optional<HandlerDefinition> handler = this.handlers.handler(job.handler());
        return new JobDefinition(
                job.name(),
                job.schedule(),
                job.misfire(),
                handler.map(HandlerDefinition::retry).orElse(NO_RETRY),
                handler.map(HandlerDefinition::timeout).orElse(null),
                null,
                null,
                "runtime job " + job.name(),
                (context) -> {
                    throw new IllegalStateException("Runtime jobs run through their handler");
                });
    }

    /**
     * The jobs read: read now after a change made here; when they are older than {@value
     * #CACHE_MILLIS} ms, read again on a thread of their own while this caller, often a thread
     * about to run a fire, goes on with what was read.
     */
    private Map<String, RuntimeJobRecord> jobs() {
        if (this.stale) {
            return load();
        }
        if (this.clock.millis() - this.loadedAt > CACHE_MILLIS && this.refreshing.compareAndSet(false, true)) {
            try {
                this.refresher.execute(this::refresh);
            } catch (RejectedExecutionException ex) {
                // closed: the node stops
                this.refreshing.set(false);
            }
        }
        return this.cache;
    }

    private void refresh() {
        try {
            load();
        } catch (RuntimeException ex) {
            // tried again once the jobs read are older than the cache's life, not on every call
            this.loadedAt = this.clock.millis();
            logger.warn("Could not read the runtime jobs, keeping those read before: {}", ex.toString());
        } finally {
            this.refreshing.set(false);
        }
    }

    /** Reads every runtime job; one thread at a time, the others take what it read. */
    private synchronized Map<String, RuntimeJobRecord> load() {
        if (!this.stale && this.clock.millis() - this.loadedAt <= MISS_RELOAD_MILLIS) {
            return this.cache;
        }
        // cleared before the read: a change made while reading marks the result stale again
        boolean changed = this.stale;
        this.stale = false;
        Map<String, RuntimeJobRecord> jobs = new LinkedHashMap<>();
        try {
            this.aggregates.findAll(RuntimeJobRecord.class).forEach((job) -> jobs.put(job.name(), job));
        } catch (RuntimeException ex) {
            // a change made here is still to be read
            this.stale = this.stale || changed;
            throw ex;
        }
        this.cache = Map.copyOf(jobs);
        this.loadedAt = this.clock.millis();
        return this.cache;
    }

    /** The names of the jobs this node runs, among those of one read. */
    private record Names(Map<String, RuntimeJobRecord> of, Set<String> names) {}

    private void invalidate() {
        this.stale = true;
    }

    /** Stops reading the jobs in the background. */
    @Override
    public void close() {
        this.refresher.shutdownNow();
    }
}
