package io.dsched.benchmarks.contestants;

import com.zaxxer.hikari.HikariDataSource;
import io.dsched.autoconfigure.DschedProperties;
import io.dsched.benchmarks.BenchDatabase;
import io.dsched.benchmarks.Contestant;
import io.dsched.benchmarks.NodeSpec;
import io.dsched.benchmarks.Probe;
import io.dsched.benchmarks.Provenance;
import io.dsched.benchmarks.RecurringPlan;
import io.dsched.benchmarks.Workload;
import io.dsched.internal.engine.QuartzSettings;
import io.dsched.internal.store.DatabasePlatform;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TimeZone;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.quartz.CronScheduleBuilder;
import org.quartz.DisallowConcurrentExecution;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.quartz.impl.SchedulerRepository;
import org.quartz.impl.StdSchedulerFactory;
import org.quartz.impl.jdbcjobstore.JobStoreTX;
import org.quartz.utils.ConnectionProvider;
import org.quartz.utils.DBConnectionManager;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Plain Quartz ({@code org.quartz-scheduler:quartz} 2.5.2), clustered on its JDBC job store, in three
 * variants.
 *
 * <p>Common to all: clustered ({@code isClustered = true}), {@code tablePrefix = QRTZ_} (tables
 * from the jar's {@code tables_postgres.sql} or {@code tables_mysql_innodb.sql}), scheduler name
 * {@code bench-quartz} on every node, instance id the node's name, {@code SimpleThreadPool} with
 * {@code threadCount = threads}, and a connection pool of {@code threads + 6} connections
 * ({@code BenchDatabase.nodePool}, the same for every contestant; the Quartz docs ask for at least
 * the worker threads plus three). The coordinator stores the jobs
 * through a scheduler of the same name and settings with instance id {@code bench-coordinator} and
 * a {@code ZeroSizeThreadPool}, never started and shut down before it returns; it stores them with
 * {@code Scheduler.scheduleJobs(Map, false)} in batches of {@value #BATCH} jobs, one transaction
 * each (faster than {@code scheduleJob} one by one). {@code misfireThreshold} is 60 000 ms in every
 * variant (Quartz's default and dsched's).
 *
 * <p>One-off job {@code i}: a non-durable {@code JobDetail} {@code one-off-i} of {@link OneOffJob}
 * with {@code requestsRecovery(true)} (the coordinator cannot tell W1 from W3, and the flag costs
 * nothing until a node dies) and the key in its {@code JobDataMap}, with a one-shot
 * {@code SimpleTrigger}; its start and first fire time are set to the moment the nodes start
 * ({@link #nodesStarting}), since storing 20 000 of them outlasts the misfire threshold; its
 * misfire instruction is the default (smart) one, which for
 * a one-shot trigger is fire now, except in {@link Variant#TUNED} and {@link Variant#SKIP_LOCKED}
 * (below).
 *
 * <p>Recurring job {@code j}: a durable {@code JobDetail} {@code bench-j} of {@link RecurringJob}
 * with a {@code CronTrigger} on the plan's cron in UTC (Spring's six fields become Quartz's: a
 * {@code ?} in day-of-week, or in day-of-month when day-of-week is given, whose numbers move from
 * Spring's 0-7 to Quartz's 1-7) and the default (smart) misfire instruction, which for a cron
 * trigger is fire once now. The body reports {@code JobExecutionContext.getScheduledFireTime()}.
 * {@link RecurringJob} is {@link DisallowConcurrentExecution}: that is how a Quartz user declares
 * a recurring job that must not overlap itself, and it is the guarantee dsched gives (its own
 * Quartz job carries the same annotation), so both pay for it.
 *
 * <p>W3: Quartz's cluster recovery. A live node declares another failed once that node's last
 * check-in is older than its check-in interval plus 7 500 ms (a grace Quartz hard-codes), and judges
 * so at each of its own check-ins; then it re-fires the dead node's in-flight fires of jobs that
 * request recovery, at once. So that the failure detection is as quick as the other contestants'
 * (dead once silent for 10 s), every variant checks in every {@value #W3_CHECKIN_MILLIS} ms in W3
 * (Quartz's default is 7 500 ms, dsched's 5 000 ms): a node is declared failed 10 s after its last
 * check-in, judged every 2.5 s.
 *
 * <p>W5 (one-offs submitted while the nodes run) and W6 (one-offs under a cluster-wide limit): no
 * variant takes part: the workloads compare dsched with db-scheduler and JobRunr.
 *
 * <p>{@link Variant#DEFAULTS} ({@code quartz-defaults}): nothing else set, so
 * {@code batchTriggerAcquisitionMaxCount = 1}, {@code batchTriggerAcquisitionFireAheadTimeWindow
 * = 0}, {@code acquireTriggersWithinLock = false}, {@code idleWaitTime = 30000} ms.
 *
 * <p>{@link Variant#TUNED} ({@code quartz-tuned}) and {@link Variant#SKIP_LOCKED}
 * ({@code quartz-skip-locked}): exactly the Quartz settings dsched gives its own nodes, built by
 * the same code ({@code io.dsched.internal.engine.QuartzSettings.forNode}) from dsched's defaults
 * ({@code dsched.cluster.*}), so that W4 compares dsched with bare Quartz tuned alike and the two
 * cannot drift apart: {@code batchTriggerAcquisitionMaxCount = threads} (a node takes as many due
 * triggers per acquisition as it has threads), no fire-ahead window
 * ({@code batchTriggerAcquisitionFireAheadTimeWindow = 0}), {@code acquireTriggersWithinLock =
 * true} (which the Quartz docs require once batches are above one), {@code idleWaitTime = 1000} ms
 * (the smallest legal value), {@code clusterCheckinInterval = 5000} ms, {@code misfireThreshold =
 * 60000} ms, {@code useProperties = true} (job data as strings), {@code skipUpdateCheck}, daemon
 * worker threads, and dsched's Spring-cron trigger persistence delegate registered (unused here).
 * What differs is inherent to each contestant: the table prefix ({@code QRTZ_}, dsched's is {@code
 * DSCHED_QRTZ_}), the instance name, and the store: {@code quartz-tuned} runs on Quartz's stock
 * {@code JobStoreTX} with the stock delegate, {@code quartz-skip-locked} on dsched's clustering
 * extension ({@code io.dsched.quartz.SkipLockedJobStore} with the matching {@code
 * SkipLockedDelegates} delegate), which acquires, fires and completes triggers without the {@code
 * TRIGGER_ACCESS} lock, as dsched does (dsched's store is governed by its membership, which bare
 * Quartz has none of; without it the store behaves as Quartz's). The recurring jobs run on Quartz's
 * {@code CronTrigger}, dsched's on its Spring-cron trigger.
 *
 * <p>Both carry {@code MISFIRE_INSTRUCTION_IGNORE_MISFIRE_POLICY} on their one-off triggers
 * ({@code withMisfireHandlingInstructionIgnoreMisfires()}: "fire as soon as it can", which is what
 * a one-off due now means anyway). With the smart policy, every trigger of a backlog older than
 * {@code misfireThreshold} (60 s) must first pass through the misfire handler, 20 at a time
 * ({@code maxMisfiresToHandleAtATime}) under the cluster's {@code TRIGGER_ACCESS} lock, which
 * stamps them due now again; when the backlog drains slower than that, the handler holds the lock
 * most of the time and re-misfires what it stamped a minute before. Recurring triggers keep the
 * smart policy.
 */
public class QuartzContestant implements Contestant {

    /** The scheduler name every node of the cluster shares. */
    static final String SCHEDULER_NAME = "bench-quartz";

    private static final String ONE_OFF_GROUP = "bench-one-off";

    private static final String RECURRING_GROUP = "bench-recurring";

    /**
     * The check-in interval of every variant in W3: Quartz declares a node failed once its last
     * check-in is older than its interval plus 7 500 ms, so 2 500 ms makes that 10 s.
     */
    static final int W3_CHECKIN_MILLIS = 2500;

    /** Jobs stored per {@code scheduleJobs} call. */
    private static final int BATCH = 500;

    private final Variant variant;

    /** The three configurations. */
    public enum Variant {
        /** Quartz's defaults for a clustered JDBC job store. */
        DEFAULTS("quartz-defaults"),
        /** dsched's Quartz settings on Quartz's stock store. */
        TUNED("quartz-tuned"),
        /** dsched's Quartz settings on dsched's store, which acquires triggers with {@code SKIP LOCKED}. */
        SKIP_LOCKED("quartz-skip-locked");

        private final String contestantName;

        Variant(String contestantName) {
            this.contestantName = contestantName;
        }

        /**
         * Returns the name shown in the tables.
         * @return the name
         */
        public String contestantName() {
            return this.contestantName;
        }
    }

    /**
     * Creates a contestant.
     * @param variant its configuration
     */
    public QuartzContestant(Variant variant) {
        this.variant = variant;
    }

    @Override
    public String name() {
        return this.variant.contestantName();
    }

    @Override
    public String library() {
        return "Quartz " + Provenance.version(Scheduler.class, "org.quartz-scheduler", "quartz");
    }

    @Override
    public String failureDetection() {
        return "dead 10 s after its last check-in (every " + W3_CHECKIN_MILLIS + " ms, plus Quartz's 7.5 s grace),"
                + " judged at each check-in; re-fired at once";
    }

    @Override
    public boolean supports(Workload workload) {
        return workload != Workload.W5_SUBMIT_LATENCY
                && workload != Workload.W6_LIMITS
                && workload != Workload.W7_SHARDS;
    }

    @Override
    public void drop(BenchDatabase db) {
        db.dropTablesStartingWith("qrtz_");
    }

    @Override
    public void reset(BenchDatabase db) throws Exception {
        drop(db);
        String script = db.isPostgres() ? "tables_postgres.sql" : "tables_mysql_innodb.sql";
        List<String> statements = new ArrayList<>();
        for (String statement :
                readScript("/org/quartz/impl/jdbcjobstore/" + script).split(";")) {
            String sql = statement.strip();
            String upper = sql.toUpperCase(java.util.Locale.ROOT);
            if (!sql.isEmpty() && !upper.startsWith("DROP") && !upper.equals("COMMIT")) {
                statements.add(sql);
            }
        }
        try (HikariDataSource pool = db.pool("quartz-ddl", 1);
                Connection connection = pool.getConnection();
                Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }

    @Override
    public Duration enqueue(BenchDatabase db, int count) throws Exception {
        long[] took = new long[1];
        withCoordinator(db, scheduler -> {
            long start = System.nanoTime();
            for (int from = 0; from < count; from += BATCH) {
                scheduler.scheduleJobs(oneOffs(from, Math.min(count, from + BATCH)), false);
            }
            took[0] = System.nanoTime() - start;
        });
        return Duration.ofNanos(took[0]);
    }

    private Map<JobDetail, Set<? extends Trigger>> oneOffs(int from, int to) {
        Map<JobDetail, Set<? extends Trigger>> batch = new LinkedHashMap<>();
        for (int i = from; i < to; i++) {
            String key = Integer.toString(i);
            JobDetail job = JobBuilder.newJob(OneOffJob.class)
                    .withIdentity("one-off-" + key, ONE_OFF_GROUP)
                    .usingJobData(OneOffJob.KEY, key)
                    .requestRecovery(true)
                    .build();
            SimpleScheduleBuilder schedule = SimpleScheduleBuilder.simpleSchedule();
            if (this.variant != Variant.DEFAULTS) {
                schedule = schedule.withMisfireHandlingInstructionIgnoreMisfires();
            }
            Trigger trigger = TriggerBuilder.newTrigger()
                    .withIdentity("one-off-" + key, ONE_OFF_GROUP)
                    .forJob(job)
                    .startNow()
                    .withSchedule(schedule)
                    .build();
            batch.put(job, Set.of(trigger));
        }
        return batch;
    }

    /**
     * Makes the one-off triggers due now, as the nodes start, as if they had been scheduled with
     * {@code startAt(now)}: storing 20 000 of them takes longer than the misfire threshold (60 s),
     * and triggers that old when the nodes start would put every variant in a misfire storm from
     * the first second. With no node running, nothing else reads or writes them meanwhile. The
     * dead row versions the update leaves are vacuumed (or purged) before the nodes start.
     */
    @Override
    public void nodesStarting(BenchDatabase db) throws SQLException {
        long now = System.currentTimeMillis();
        try (HikariDataSource pool = db.pool("quartz-due-now", 1);
                Connection connection = pool.getConnection();
                PreparedStatement update = connection.prepareStatement("UPDATE QRTZ_TRIGGERS SET START_TIME = ?,"
                        + " NEXT_FIRE_TIME = ? WHERE SCHED_NAME = ? AND TRIGGER_GROUP = ?")) {
            update.setLong(1, now);
            update.setLong(2, now);
            update.setString(3, SCHEDULER_NAME);
            update.setString(4, ONE_OFF_GROUP);
            update.executeUpdate();
        }
        // the update left a dead version of every trigger row, which no other contestant starts with
        db.vacuum("QRTZ_TRIGGERS", java.time.Duration.ofSeconds(10));
    }

    /**
     * The one-off triggers gone: Quartz deletes a one-shot trigger (and its non-durable job) in the
     * transaction that records its fire's completion.
     */
    @Override
    public long completedOneOffs(JdbcTemplate jdbc, int enqueued) {
        return enqueued
                - jdbc.queryForObject(
                        "/* bench-coordinator */ SELECT COUNT(*) FROM QRTZ_TRIGGERS WHERE SCHED_NAME = ?"
                                + " AND TRIGGER_GROUP = ?",
                        Long.class,
                        SCHEDULER_NAME,
                        ONE_OFF_GROUP);
    }

    @Override
    public void defineRecurring(BenchDatabase db, RecurringPlan plan) throws Exception {
        String cron = quartzCron(plan.cron());
        withCoordinator(db, scheduler -> {
            Map<JobDetail, Set<? extends Trigger>> batch = new LinkedHashMap<>();
            for (int j = 0; j < plan.jobs(); j++) {
                String name = RecurringPlan.jobName(j);
                JobDetail job = JobBuilder.newJob(RecurringJob.class)
                        .withIdentity(name, RECURRING_GROUP)
                        // a string: dsched's settings keep job data as properties
                        .usingJobData(RecurringJob.JOB, Integer.toString(j))
                        .storeDurably()
                        .build();
                Trigger trigger = TriggerBuilder.newTrigger()
                        .withIdentity(name, RECURRING_GROUP)
                        .forJob(job)
                        .startNow()
                        .withSchedule(CronScheduleBuilder.cronSchedule(cron).inTimeZone(TimeZone.getTimeZone("UTC")))
                        .build();
                batch.put(job, Set.of(trigger));
                if (batch.size() == BATCH || j == plan.jobs() - 1) {
                    scheduler.scheduleJobs(batch, true);
                    batch.clear();
                }
            }
        });
    }

    @Override
    public AutoCloseable start(BenchDatabase db, NodeSpec spec) throws Exception {
        HikariDataSource pool = db.nodePool("quartz-" + spec.name(), spec.threads());
        try {
            Properties properties = properties(db, spec.name(), pool, spec.threads());
            if (spec.workload() == Workload.W3_FAILOVER) {
                // a failure detection as quick as the other contestants'
                properties.setProperty("org.quartz.jobStore.clusterCheckinInterval", String.valueOf(W3_CHECKIN_MILLIS));
            }
            Scheduler scheduler = create(properties);
            scheduler.start();
            return () -> {
                try {
                    scheduler.shutdown(true);
                } finally {
                    pool.close();
                }
            };
        } catch (Exception ex) {
            pool.close();
            throw ex;
        }
    }

    private void withCoordinator(BenchDatabase db, SchedulerWork work) throws Exception {
        try (HikariDataSource pool = db.pool("quartz-coordinator", 2)) {
            // the nodes' settings, so that the coordinator writes the jobs as the nodes read them
            // (useProperties), with no threads: it never starts
            Properties properties = properties(db, "bench-coordinator", pool, 1);
            properties.stringPropertyNames().stream()
                    .filter((name) -> name.startsWith("org.quartz.threadPool."))
                    .forEach(properties::remove);
            properties.setProperty("org.quartz.threadPool.class", "org.quartz.simpl.ZeroSizeThreadPool");
            Scheduler scheduler = create(properties);
            try {
                work.run(scheduler);
            } finally {
                scheduler.shutdown(false);
            }
        }
    }

    /** The properties of a node (or the coordinator) of this variant. */
    private Properties properties(BenchDatabase db, String instanceId, HikariDataSource pool, int threads) {
        if (this.variant == Variant.DEFAULTS) {
            Properties properties = defaults(db, instanceId, pool);
            properties.setProperty("org.quartz.threadPool.class", "org.quartz.simpl.SimpleThreadPool");
            properties.setProperty("org.quartz.threadPool.threadCount", String.valueOf(threads));
            return properties;
        }
        return dschedSettings(db, instanceId, pool, threads, this.variant == Variant.SKIP_LOCKED);
    }

    /**
     * The Quartz properties dsched gives its own nodes, built by the same code
     * ({@code QuartzSettings.forNode}) from dsched's defaults ({@code dsched.cluster.*}), so that
     * they cannot drift apart. What differs is inherent to the contestant: the table prefix
     * ({@code QRTZ_}), and for {@code quartz-tuned} Quartz's stock {@code JobStoreTX} instead of
     * dsched's {@code ClusterJobStore}; the instance name is {@value #SCHEDULER_NAME} (dsched's is
     * its cluster name).
     */
    static Properties dschedSettings(
            BenchDatabase db, String instanceId, HikariDataSource pool, int threads, boolean skipLocked) {
        DschedProperties.Cluster cluster = new DschedProperties().getCluster();
        Properties properties = QuartzSettings.forNode(
                pool,
                db.isPostgres() ? DatabasePlatform.POSTGRESQL : DatabasePlatform.MYSQL,
                SCHEDULER_NAME,
                instanceId,
                threads,
                cluster.getCheckinInterval(),
                cluster.getIdleWait(),
                cluster.getMisfireThreshold(),
                skipLocked);
        properties.setProperty("org.quartz.jobStore.tablePrefix", "QRTZ_");
        if (!skipLocked) {
            properties.setProperty("org.quartz.jobStore.class", JobStoreTX.class.getName());
        }
        return properties;
    }

    /** Quartz's defaults for a clustered JDBC job store, threads aside. */
    private static Properties defaults(BenchDatabase db, String instanceId, HikariDataSource pool) {
        String dataSource = "bench-quartz-" + instanceId;
        DBConnectionManager.getInstance().addConnectionProvider(dataSource, new PoolProvider(pool));
        Properties properties = new Properties();
        properties.setProperty("org.quartz.scheduler.instanceName", SCHEDULER_NAME);
        properties.setProperty("org.quartz.scheduler.instanceId", instanceId);
        properties.setProperty("org.quartz.jobStore.class", JobStoreTX.class.getName());
        properties.setProperty(
                "org.quartz.jobStore.driverDelegateClass",
                db.isPostgres()
                        ? "org.quartz.impl.jdbcjobstore.PostgreSQLDelegate"
                        : "org.quartz.impl.jdbcjobstore.StdJDBCDelegate");
        properties.setProperty("org.quartz.jobStore.tablePrefix", "QRTZ_");
        properties.setProperty("org.quartz.jobStore.isClustered", "true");
        properties.setProperty("org.quartz.jobStore.dataSource", dataSource);
        return properties;
    }

    private static Scheduler create(Properties properties) throws SchedulerException {
        Scheduler scheduler = new StdSchedulerFactory(properties).getScheduler();
        // Quartz keeps one scheduler per name in a JVM; forget it so that another node (or the
        // coordinator) of the same cluster can be created in this JVM too.
        SchedulerRepository.getInstance().remove(SCHEDULER_NAME);
        return scheduler;
    }

    /**
     * Turns a Spring six-field cron into a Quartz one, which wants a {@code ?} in day-of-month or
     * day-of-week and numbers Sunday to Saturday 1 to 7 instead of 0 to 6 (or 7).
     * @param spring the Spring cron
     * @return the Quartz cron
     */
    static String quartzCron(String spring) {
        String[] fields = spring.strip().split("\\s+");
        if (fields.length != 6) {
            throw new IllegalArgumentException("Not a six-field cron: " + spring);
        }
        if (fields[5].equals("*") || fields[5].equals("?")) {
            fields[5] = "?";
            if (fields[3].equals("?")) {
                fields[3] = "*";
            }
        } else {
            if (fields[3].equals("*")) {
                fields[3] = "?";
            }
            Matcher number = Pattern.compile("\\d+").matcher(fields[5]);
            StringBuilder dayOfWeek = new StringBuilder();
            while (number.find()) {
                int day = Integer.parseInt(number.group()) % 7 + 1;
                number.appendReplacement(dayOfWeek, Integer.toString(day));
            }
            number.appendTail(dayOfWeek);
            fields[5] = dayOfWeek.toString();
        }
        return String.join(" ", fields);
    }

    private static String readScript(String resource) throws IOException {
        try (InputStream in = QuartzContestant.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("Not on the classpath: " + resource);
            }
            StringBuilder script = new StringBuilder();
            for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
                String stripped = line.strip();
                if (!stripped.startsWith("--") && !stripped.startsWith("#")) {
                    script.append(line).append('\n');
                }
            }
            return script.toString();
        }
    }

    @FunctionalInterface
    private interface SchedulerWork {
        void run(Scheduler scheduler) throws SchedulerException;
    }

    /** A Quartz connection provider over the benchmark's pool. */
    private static final class PoolProvider implements ConnectionProvider {

        private final HikariDataSource pool;

        PoolProvider(HikariDataSource pool) {
            this.pool = pool;
        }

        @Override
        public Connection getConnection() throws SQLException {
            return this.pool.getConnection();
        }

        @Override
        public void shutdown() {
            this.pool.close();
        }

        @Override
        public void initialize() {}
    }

    /** The body of a one-off job: {@code Probe.oneOff(key)}. */
    public static class OneOffJob implements Job {

        static final String KEY = "key";

        /** Creates the job, as Quartz's job factory does. */
        public OneOffJob() {}

        @Override
        public void execute(JobExecutionContext context) {
            Probe.oneOff(context.getMergedJobDataMap().getString(KEY));
        }
    }

    /** The body of a recurring job: {@code Probe.recurring(j, scheduledFireTime)}. */
    @DisallowConcurrentExecution
    public static class RecurringJob implements Job {

        static final String JOB = "job";

        /** Creates the job, as Quartz's job factory does. */
        public RecurringJob() {}

        @Override
        public void execute(JobExecutionContext context) {
            Probe.recurring(
                    context.getMergedJobDataMap().getIntValue(JOB),
                    context.getScheduledFireTime().getTime());
        }
    }
}
