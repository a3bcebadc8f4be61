package io.dsched.internal.jobs;

import io.dsched.execution.JobContext;
import io.dsched.internal.execution.JobTarget;
import io.dsched.internal.execution.JobTargets;
import io.dsched.internal.execution.Sharding;
import io.dsched.internal.handler.HandlerDefinition;
import io.dsched.internal.handler.HandlerRegistry;
import io.dsched.internal.store.ClusterTables;
import io.dsched.internal.store.ExecutionRepository;
import io.dsched.jobs.RuntimeJobRecord;
import io.dsched.retry.NonRetryableJobException;
import java.time.Clock;
import java.util.Collections;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import javax.sql.DataSource;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
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

    private final HandlerRegistry handlers;

    private final RuntimeJobCache cache;

    private final RuntimeJobStore store;

    private final RuntimeJobTriggers triggers;

    private volatile Names names = new Names(null, Set.of());

    private final RuntimeShards shards;

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
        this.handlers = handlers;
        this.cache = new RuntimeJobCache(aggregates, clock);
        this.shards = new RuntimeShards(this.cache);
        this.store = new RuntimeJobStore(
                aggregates, new JdbcTemplate(dataSource), tables, executions, transactions, this.cache::invalidate);
        this.triggers = new RuntimeJobTriggers(handlers, clock);
    }

    @Override
    public Optional<JobTarget> find(String name) {
        RuntimeJobRecord job = this.cache.find(name);
        if (job == null) {
            return Optional.empty();
        }
        return this.handlers
                .handler(job.handler())
                .map((handler) -> new JobTarget(
                        job.name(),
                        handler.group(),
                        handler.retry(),
                        handler.timeout(),
                        true,
                        null,
                        null,
                        null,
                        this.shards.all().get(job.name()),
                        (context, payload) -> invoke(handler, job, context, payload)));
    }

    /**
     * Returns the shards a runtime job was created with, as a job declared with shards has them.
     * @param name the job
     * @return its shards, or empty if there is no such job or it runs whole
     */
    public Optional<Sharding> shards(String name) {
        return this.shards.of(name);
    }

    /**
     * Returns the sharded runtime jobs, each with the shards it was created with.
     * @return the shards by job
     */
    public Map<String, Sharding> sharded() {
        return this.shards.all();
    }

    /**
     * Runs something after each read of the jobs that found them changed, here or on another node
     * (read again every 5 s), on the thread that read them.
     * @param listener what to run
     */
    public void whenChanged(Runnable listener) {
        this.cache.whenRead(listener);
    }

    /** A sharded job this node runs, or one whose handler it does not declare: it splits its fires all the same. */
    @Override
    public Optional<JobTarget> sharded(String name) {
        Optional<JobTarget> here = find(name);
        return here.isPresent() ? here.filter((job) -> job.shards() != null) : this.shards.splitElsewhere(name);
    }

    /**
     * Runs a job through its handler. A run that fails after its job was deleted is not retried:
     * a retry would wait for a job that no node fires any more, so the failure ends the fire.
     */
    private void invoke(HandlerDefinition handler, RuntimeJobRecord job, JobContext context, String payload)
            throws Exception {
        try {
            // a shard's attempt carries its shard's parameter, which its context gives: the handler
            // gets the job's; a run by hand, its own, or else the job's
            boolean shard = Sharding.shardOf(context.idempotencyKey()) != null;
            handler.invoker().invoke(context, (payload != null && !shard) ? payload : job.params());
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
        Map<String, RuntimeJobRecord> jobs = this.cache.jobs();
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
        return this.store.record(name);
    }

    /** Reads and writes the stored jobs, each write making the jobs read stale. */
    RuntimeJobStore store() {
        return this.store;
    }

    /**
     * Writes a job's Quartz job and trigger, replacing any earlier ones.
     * @param scheduler the Quartz scheduler
     * @param job the job
     * @throws SchedulerException if the store cannot be written
     */
    void schedule(Scheduler scheduler, RuntimeJobRecord job) throws SchedulerException {
        this.triggers.schedule(scheduler, job);
    }

    /**
     * Repairs the store at start-up: every job has its trigger, and no trigger outlives its job.
     * @param scheduler the Quartz scheduler
     * @throws SchedulerException if the store cannot be read or written
     */
    public void synchronize(Scheduler scheduler) throws SchedulerException {
        this.triggers.synchronize(scheduler, this.cache.load());
    }

    /** The names of the jobs this node runs, among those of one read. */
    private record Names(Map<String, RuntimeJobRecord> of, Set<String> names) {}

    /** Stops reading the jobs in the background. */
    @Override
    public void close() {
        this.cache.close();
    }
}
