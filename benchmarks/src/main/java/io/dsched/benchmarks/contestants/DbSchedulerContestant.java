package io.dsched.benchmarks.contestants;

import com.github.kagkarlsson.scheduler.Scheduler;
import com.github.kagkarlsson.scheduler.SchedulerBuilder;
import com.github.kagkarlsson.scheduler.SchedulerClient;
import com.github.kagkarlsson.scheduler.SchedulerName;
import com.github.kagkarlsson.scheduler.jdbc.AutodetectJdbcCustomization;
import com.github.kagkarlsson.scheduler.task.SchedulableInstance;
import com.github.kagkarlsson.scheduler.task.Task;
import com.github.kagkarlsson.scheduler.task.helper.OneTimeTask;
import com.github.kagkarlsson.scheduler.task.helper.RecurringTask;
import com.github.kagkarlsson.scheduler.task.helper.Tasks;
import com.github.kagkarlsson.scheduler.task.schedule.Schedules;
import com.zaxxer.hikari.HikariDataSource;
import io.dsched.benchmarks.BenchDatabase;
import io.dsched.benchmarks.Contestant;
import io.dsched.benchmarks.LimitShape;
import io.dsched.benchmarks.NodeSpec;
import io.dsched.benchmarks.Probe;
import io.dsched.benchmarks.Provenance;
import io.dsched.benchmarks.RecurringPlan;
import io.dsched.benchmarks.Submitter;
import io.dsched.benchmarks.Workload;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * <a href="https://github.com/kagkarlsson/db-scheduler">db-scheduler</a> 16.7.1, through its plain
 * library API ({@code Scheduler.create(dataSource, tasks...)} and {@code
 * SchedulerClient.Builder.create(dataSource, tasks...)}), not its Spring Boot starter.
 *
 * <p>Variants (the names in the tables), each at db-scheduler's own defaults but for what its
 * name says:
 *
 * <ul>
 *   <li>{@code db-scheduler-fetch}: db-scheduler's defaults, nothing set: polling strategy
 *       fetch-and-lock-on-execute ({@code pollUsingFetchAndLockOnExecute(0.5, 3.0)}), poll interval
 *       10 s, heartbeat every 5 min. W1, W2, W3.
 *   <li>{@code db-scheduler-lock-and-fetch}: {@code pollUsingLockAndFetch(0.5, 1.0)}, the values
 *       db-scheduler's README gives "for normal usage" ({@code SELECT ... FOR UPDATE SKIP LOCKED}
 *       on PostgreSQL), poll interval 10 s. W1, W2, W3.
 *   <li>{@code db-scheduler-lock-and-fetch-throughput}: {@code pollUsingLockAndFetch(1.0, 4.0)},
 *       the values its README gives "for high throughput (i.e. keep threads busy)", poll interval
 *       10 s: its documented best for W1 and W6. W1 and W6.
 *   <li>{@code db-scheduler-1s}: {@code pollUsingLockAndFetch(0.5, 1.0)} with a 1 s poll interval.
 *       W2 only. On MariaDB its default polling, fetch-and-lock-on-execute, with the same poll.
 *   <li>{@code db-scheduler-immediate}: {@code enableImmediateExecution()}, the README's setting for
 *       executions scheduled to run now ("the local {@code Scheduler} will be hinted ... and 'wake
 *       up' to go check for new executions earlier than it normally would"), on the polling of
 *       {@code db-scheduler-1s} as this harness configures it for W2's latency: {@code
 *       pollUsingLockAndFetch(0.5, 1.0)}, 1 s poll (the README documents no poll interval as best
 *       for latency; its default is 10 s). W5 only. On MariaDB, where db-scheduler refuses
 *       lock-and-fetch, the same on its default polling, fetch-and-lock-on-execute.
 * </ul>
 *
 * <p>db-scheduler 16.7.1 refuses lock-and-fetch on MariaDB (its {@code MariaDBJdbcCustomization}
 * reports no support for it although MariaDB 10.6+ has {@code SKIP LOCKED}), so on MariaDB
 * {@link #start} fails with the library's own {@code IllegalArgumentException} for the
 * lock-and-fetch variants, but for those of a 1 s poll, {@code db-scheduler-1s} and {@code
 * db-scheduler-immediate}, which poll by fetch there, every second.
 *
 * <p>Common configuration: {@code threads(spec.threads())}, {@code schedulerName(new
 * SchedulerName.Fixed(spec.name()))}, {@code shutdownMaxWait(30 s)} (how long a node's stop waits
 * for running executions; it bears on no measurement). In W3 alone, for a failure detection as
 * quick as the other contestants', {@code heartbeatInterval(1 s)}, {@code missedHeartbeatsLimit(10)}
 * and {@code pollingInterval(1 s)}: an execution whose heartbeat is older than 1 s &times; 10 = 10 s
 * is dead; the dead-execution check runs every 2 &times; heartbeat = 2 s, and the default handler
 * of a one-time task revives it (reschedules it to now), after which it waits for the next poll,
 * within 1 s.
 * Timestamps are written in UTC ({@code AutodetectJdbcCustomization(dataSource, true)}, the same
 * for scheduler and client). Immediate execution is NOT enabled but in {@code
 * db-scheduler-immediate}: it only wakes the local scheduler when that scheduler itself schedules
 * an instance, and in W1 to W3 every one-off is stored by a separate client before the nodes start
 * (each node polls at once when it starts, and fetches the next batch without waiting for the poll
 * interval while its batches keep coming back full).
 * Default Java serialization of task data. Connection pool per node: Hikari, {@code threads + 6}
 * ({@code BenchDatabase.nodePool}, the same for every contestant).
 *
 * <p>Table {@code scheduled_tasks}, as documented by db-scheduler for PostgreSQL and MySQL (with
 * its three indexes), dropped and created by {@link #reset}.
 *
 * <p>W1/W3: one-time task {@code bench-one-off} with {@code String} data, the key, which is also
 * the instance id; {@link #enqueue} stores them through {@code SchedulerClient.scheduleBatch} in
 * lists of {@value #ENQUEUE_CHUNK}, all due now. W2: one recurring task per job, {@code
 * Tasks.recurring(RecurringPlan.jobName(j), Schedules.cron(plan.cron(), UTC))}, declared in code
 * by every node at start (db-scheduler stores its next execution if not there yet); the body
 * reports {@code executionContext.getExecution().executionTime} as the scheduled time. After a
 * run, db-scheduler schedules the next cron slot after the run, so slots that pass before a poll
 * finds the execution are skipped, not run late (with a 10 s poll and a 2 s cron, a job runs about
 * once per poll). {@link #defineRecurring} is a no-op. W4 is not supported (it is Quartz-specific).
 *
 * <p>W6: db-scheduler has no limit on how many executions of a task run at once in the cluster,
 * nor on how many start per period: each node runs as many as its threads. {@code
 * db-scheduler-lock-and-fetch-throughput} runs the one-time task of W1, with the same data,
 * stored by {@link #enqueue}.
 */
public class DbSchedulerContestant implements Contestant {

    /** How many instances go into one {@code scheduleBatch} call. */
    static final int ENQUEUE_CHUNK = 1000;

    static final String ONE_OFF = "bench-one-off";

    static final String TABLE = "scheduled_tasks";

    /** The configurations under test. */
    public enum Variant {
        /** db-scheduler's defaults: fetch-and-lock-on-execute (0.5, 3.0), 10 s poll. */
        FETCH("db-scheduler-fetch", null, SchedulerBuilder.DEFAULT_POLLING_INTERVAL),
        /** Lock-and-fetch (0.5, 1.0), "for normal usage", 10 s poll. */
        LOCK_AND_FETCH(
                "db-scheduler-lock-and-fetch", new double[] {0.5, 1.0}, SchedulerBuilder.DEFAULT_POLLING_INTERVAL),
        /** Lock-and-fetch (1.0, 4.0), "for high throughput", 10 s poll, for W1. */
        LOCK_AND_FETCH_THROUGHPUT(
                "db-scheduler-lock-and-fetch-throughput",
                new double[] {1.0, 4.0},
                SchedulerBuilder.DEFAULT_POLLING_INTERVAL),
        /** Lock-and-fetch (0.5, 1.0), 1 s poll, for W2. */
        LOCK_AND_FETCH_1S("db-scheduler-1s", new double[] {0.5, 1.0}, Duration.ofSeconds(1)),
        /** Immediate execution, lock-and-fetch (0.5, 1.0), 1 s poll, for W5. */
        IMMEDIATE("db-scheduler-immediate", new double[] {0.5, 1.0}, Duration.ofSeconds(1), true);

        private final String contestantName;

        /** The fractions of threads of lock-and-fetch, or {@code null} for the default strategy. */
        private final double[] lockAndFetch;

        private final Duration pollingInterval;

        private final boolean immediateExecution;

        Variant(String contestantName, double[] lockAndFetch, Duration pollingInterval) {
            this(contestantName, lockAndFetch, pollingInterval, false);
        }

        Variant(String contestantName, double[] lockAndFetch, Duration pollingInterval, boolean immediateExecution) {
            this.contestantName = contestantName;
            this.lockAndFetch = lockAndFetch;
            this.pollingInterval = pollingInterval;
            this.immediateExecution = immediateExecution;
        }

        /**
         * Returns the name shown in the tables.
         * @return the name
         */
        public String contestantName() {
            return this.contestantName;
        }
    }

    private final Variant variant;

    /** The default variant, {@link Variant#FETCH}. */
    public DbSchedulerContestant() {
        this(Variant.FETCH);
    }

    /**
     * Creates one variant.
     * @param variant the variant
     */
    public DbSchedulerContestant(Variant variant) {
        this.variant = variant;
    }

    @Override
    public String name() {
        return this.variant.contestantName;
    }

    @Override
    public String library() {
        return "db-scheduler " + Provenance.version(Scheduler.class, "com.github.kagkarlsson", "db-scheduler");
    }

    @Override
    public String failureDetection() {
        return "dead 10 s after its last heartbeat (every 1 s, 10 missed), judged every 2 s; re-run at the next"
                + " poll (1 s)";
    }

    @Override
    public String latencySetting() {
        return this.variant.immediateExecution
                ? "`enableImmediateExecution()`: a submission wakes its own node; lock-and-fetch (0.5, 1.0), fetch on MariaDB;"
                        + " 1 s poll"
                : "n/a";
    }

    @Override
    public String limitSetting(LimitShape shape) {
        String polling = (this.variant.lockAndFetch != null)
                ? "lock-and-fetch (" + this.variant.lockAndFetch[0] + ", " + this.variant.lockAndFetch[1] + ")"
                : "fetch-and-lock-on-execute";
        return "none, db-scheduler has no cluster-wide limit; " + polling + ", "
                + this.variant.pollingInterval.toSeconds() + " s poll";
    }

    @Override
    public boolean supports(Workload workload) {
        return switch (this.variant) {
            case LOCK_AND_FETCH_1S -> workload == Workload.W2_RECURRING;
            case LOCK_AND_FETCH_THROUGHPUT -> workload == Workload.W1_ONE_OFF || workload == Workload.W6_LIMITS;
            case IMMEDIATE -> workload == Workload.W5_SUBMIT_LATENCY;
            default ->
                workload != Workload.W4_GUARD_OVERHEAD
                        && workload != Workload.W5_SUBMIT_LATENCY
                        && workload != Workload.W6_LIMITS
                        && workload != Workload.W7_SHARDS;
        };
    }

    @Override
    public void drop(BenchDatabase db) {
        db.executeIgnoringErrors(List.of("DROP TABLE " + TABLE));
    }

    @Override
    public void reset(BenchDatabase db) {
        List<String> statements = new ArrayList<>();
        statements.add("DROP TABLE " + TABLE);
        if (db.isPostgres()) {
            statements.add("CREATE TABLE " + TABLE + " (task_name TEXT NOT NULL, task_instance TEXT NOT NULL,"
                    + " task_data BYTEA, execution_time TIMESTAMP WITH TIME ZONE NOT NULL, picked BOOLEAN NOT NULL,"
                    + " picked_by TEXT, last_success TIMESTAMP WITH TIME ZONE, last_failure TIMESTAMP WITH TIME ZONE,"
                    + " consecutive_failures INT, last_heartbeat TIMESTAMP WITH TIME ZONE, version BIGINT NOT NULL,"
                    + " priority SMALLINT, PRIMARY KEY (task_name, task_instance))");
            statements.add("CREATE INDEX execution_time_idx ON " + TABLE + " (execution_time)");
            statements.add("CREATE INDEX last_heartbeat_idx ON " + TABLE + " (last_heartbeat)");
            statements.add(
                    "CREATE INDEX priority_execution_time_idx ON " + TABLE + " (priority DESC, execution_time ASC)");
        } else {
            statements.add("CREATE TABLE " + TABLE + " (task_name VARCHAR(100) NOT NULL,"
                    + " task_instance VARCHAR(100) NOT NULL, task_data BLOB, execution_time TIMESTAMP(6) NOT NULL,"
                    + " picked BOOLEAN NOT NULL, picked_by VARCHAR(50), last_success TIMESTAMP(6) NULL,"
                    + " last_failure TIMESTAMP(6) NULL, consecutive_failures INT, last_heartbeat TIMESTAMP(6) NULL,"
                    + " version BIGINT NOT NULL, priority SMALLINT, PRIMARY KEY (task_name, task_instance),"
                    + " INDEX execution_time_idx (execution_time), INDEX last_heartbeat_idx (last_heartbeat),"
                    + " INDEX priority_execution_time_idx (priority DESC, execution_time ASC))");
        }
        db.executeIgnoringErrors(statements);
    }

    @Override
    public Duration enqueue(BenchDatabase db, int count) {
        OneTimeTask<String> task = oneOffTask();
        try (HikariDataSource pool = db.pool("db-scheduler-client", 2)) {
            SchedulerClient client = SchedulerClient.Builder.create(pool, task)
                    .jdbcCustomization(new AutodetectJdbcCustomization(pool, true))
                    .build();
            Instant now = Instant.now();
            long start = System.nanoTime();
            List<SchedulableInstance<?>> chunk = new ArrayList<>(ENQUEUE_CHUNK);
            for (int i = 0; i < count; i++) {
                String key = Integer.toString(i);
                chunk.add(SchedulableInstance.of(task.instance(key, key), now));
                if (chunk.size() == ENQUEUE_CHUNK || i == count - 1) {
                    client.scheduleBatch(chunk);
                    chunk = new ArrayList<>(ENQUEUE_CHUNK);
                }
            }
            return Duration.ofNanos(System.nanoTime() - start);
        }
    }

    /** The one-time executions gone: db-scheduler deletes one when it completes. */
    @Override
    public long completedOneOffs(JdbcTemplate jdbc, int enqueued) {
        return enqueued
                - jdbc.queryForObject(
                        "/* bench-coordinator */ SELECT COUNT(*) FROM " + TABLE + " WHERE task_name = ?",
                        Long.class,
                        ONE_OFF);
    }

    @Override
    public void defineRecurring(BenchDatabase db, RecurringPlan plan) {
        // recurring tasks are declared in code, by every node at start
    }

    @Override
    public AutoCloseable start(BenchDatabase db, NodeSpec spec) {
        HikariDataSource pool = db.nodePool(spec.name() + "-db-scheduler", spec.threads());
        try {
            List<Task<?>> known = new ArrayList<>();
            List<RecurringTask<Void>> recurring = new ArrayList<>();
            if (spec.workload() == Workload.W2_RECURRING) {
                RecurringPlan plan = spec.recurring();
                for (int j = 0; j < plan.jobs(); j++) {
                    int job = j;
                    recurring.add(Tasks.recurring(RecurringPlan.jobName(j), Schedules.cron(plan.cron(), ZoneOffset.UTC))
                            .execute((instance, context) -> Probe.recurring(
                                    job, context.getExecution().executionTime.toEpochMilli())));
                }
            } else {
                known.add(oneOffTask());
            }
            SchedulerBuilder builder = Scheduler.create(pool, known)
                    .startTasks(recurring)
                    .jdbcCustomization(new AutodetectJdbcCustomization(pool, true))
                    .threads(spec.threads())
                    .schedulerName(new SchedulerName.Fixed(spec.name()))
                    .pollingInterval(this.variant.pollingInterval)
                    .shutdownMaxWait(Duration.ofSeconds(30));
            if (this.variant.immediateExecution) {
                builder.enableImmediateExecution();
            }
            // the variants of a 1 s poll (W2, W5) on MariaDB, which db-scheduler refuses
            // lock-and-fetch on: the same poll on its default polling (fetch, then lock on execute)
            boolean quickPoll = this.variant == Variant.LOCK_AND_FETCH_1S || this.variant == Variant.IMMEDIATE;
            if (this.variant.lockAndFetch != null && (db.isPostgres() || !quickPoll)) {
                builder.pollUsingLockAndFetch(this.variant.lockAndFetch[0], this.variant.lockAndFetch[1]);
            }
            if (spec.workload() == Workload.W3_FAILOVER) {
                // a failure detection as quick as the other contestants': dead after 10 s, judged
                // every 2 heartbeats, picked up again within a second
                builder.heartbeatInterval(Duration.ofSeconds(1))
                        .missedHeartbeatsLimit(10)
                        .pollingInterval(Duration.ofSeconds(1));
            }
            Scheduler scheduler = builder.build();
            scheduler.start();
            return new DbSchedulerSubmissions.Node(scheduler, pool);
        } catch (RuntimeException ex) {
            pool.close();
            throw ex;
        }
    }

    /** Schedules on the node's own {@code Scheduler}, which wakes itself when immediate execution is on. */
    @Override
    public Submitter submitter(AutoCloseable node) {
        return DbSchedulerSubmissions.on(((DbSchedulerSubmissions.Node) node).scheduler(), oneOffTask());
    }

    /** Schedules through a {@code SchedulerClient}, which runs nothing and wakes no node. */
    @Override
    public Submitter client(BenchDatabase db) {
        return DbSchedulerSubmissions.client(db, oneOffTask());
    }

    static OneTimeTask<String> oneOffTask() {
        return Tasks.oneTime(ONE_OFF, String.class).execute((instance, context) -> Probe.oneOff(instance.getData()));
    }
}
