package io.dsched.benchmarks.contestants;

import com.zaxxer.hikari.HikariDataSource;
import io.dsched.benchmarks.BenchDatabase;
import io.dsched.benchmarks.Contestant;
import io.dsched.benchmarks.NodeSpec;
import io.dsched.benchmarks.Probe;
import io.dsched.benchmarks.RecurringPlan;
import io.dsched.benchmarks.Workload;
import io.dsched.quartz.SkipLockedDelegates;
import io.dsched.quartz.SkipLockedJobStore;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
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
import org.quartz.utils.ConnectionProvider;
import org.quartz.utils.DBConnectionManager;

/**
 * Plain Quartz ({@code org.quartz-scheduler:quartz} 2.5.2), clustered on its JDBC job store, in three
 * variants.
 *
 * <p>Common to both: {@code org.quartz.jobStore.class = JobStoreTX}, {@code isClustered = true},
 * {@code driverDelegateClass = PostgreSQLDelegate} on PostgreSQL and {@code StdJDBCDelegate} on
 * MariaDB, {@code tablePrefix = QRTZ_} (tables from the jar's {@code tables_postgres.sql} or
 * {@code tables_mysql_innodb.sql}), scheduler name {@code bench-quartz} on every node, instance id
 * the node's name, {@code SimpleThreadPool} with {@code threadCount = threads}, and a
 * {@link ConnectionProvider} over the benchmark's Hikari pool of {@code threads + 3} connections
 * (the Quartz docs ask for at least the worker threads plus three). The coordinator stores the jobs
 * through a scheduler of the same name with instance id {@code bench-coordinator} and a
 * {@code ZeroSizeThreadPool}, never started and shut down before it returns; it stores them with
 * {@code Scheduler.scheduleJobs(Map, false)} in batches of {@value #BATCH} jobs, one transaction
 * each (faster than {@code scheduleJob} one by one). {@code misfireThreshold} stays 60 000 ms.
 *
 * <p>One-off job {@code i}: a non-durable {@code JobDetail} {@code one-off-i} of {@link OneOffJob}
 * with {@code requestsRecovery(true)} (the coordinator cannot tell W1 from W3, and the flag costs
 * nothing until a node dies) and the key in its {@code JobDataMap}, with a one-shot
 * {@code SimpleTrigger} starting now; its misfire instruction is the default (smart) one, which for
 * a one-shot trigger is fire now, except in {@link Variant#TUNED} (below).
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
 * <p>W3: Quartz's cluster recovery. Each node checks in every {@code clusterCheckinInterval = 7500}
 * ms (Quartz's default, kept); a live node declares another failed once that node's last check-in
 * is older than its interval plus 7 500 ms, that is at its own next check-in at least 15 s after the
 * dead node's last one (about 8 to 23 s after the kill), then re-fires the dead node's in-flight
 * fires of jobs that request recovery.
 *
 * <p>{@link Variant#DEFAULTS} ({@code quartz-defaults}): nothing else set, so
 * {@code batchTriggerAcquisitionMaxCount = 1}, {@code batchTriggerAcquisitionFireAheadTimeWindow
 * = 0}, {@code acquireTriggersWithinLock = false}, {@code idleWaitTime = 30000} ms.
 *
 * <p>{@link Variant#TUNED} ({@code quartz-tuned}): what the Quartz docs offer for throughput,
 * {@code org.quartz.scheduler.batchTriggerAcquisitionMaxCount = threads} (a node takes as many
 * due triggers per lock round trip as it has threads),
 * {@code org.quartz.scheduler.batchTriggerAcquisitionFireAheadTimeWindow = 1000} ms, {@code
 * org.quartz.jobStore.acquireTriggersWithinLock = true} (which the docs require once batches are
 * above one) and {@code org.quartz.scheduler.idleWaitTime = 1000} ms (the smallest legal value);
 * and its one-off triggers carry {@code MISFIRE_INSTRUCTION_IGNORE_MISFIRE_POLICY}
 * ({@code withMisfireHandlingInstructionIgnoreMisfires()}: "fire as soon as it can", which is what
 * a one-off due now means anyway). With the smart policy, every trigger of a backlog older than
 * {@code misfireThreshold} (60 s) must first pass through the misfire handler, 20 at a time
 * ({@code maxMisfiresToHandleAtATime}) under the cluster's {@code TRIGGER_ACCESS} lock, which
 * stamps them due now again; when the backlog drains slower than that, the handler holds the lock
 * most of the time and re-misfires what it stamped a minute before: W1 with 20 000 jobs on a busy
 * 2-CPU machine fell to 2 to 4 fires/s, where ignoring misfires keeps them on the normal
 * acquisition path (the harness saw the same with quartz-defaults: about 3 fires/s, 16 000 of
 * 20 000 triggers misfired). Recurring triggers keep the smart policy. Not set:
 * {@code txIsolationLevelReadCommitted} does not exist in 2.5.2 (only
 * {@code txIsolationLevelSerializable}, which would slow it down); {@code useProperties} and
 * {@code lockOnInsert} are about safety and inserts, not firing.
 *
 * <p>{@link Variant#SKIP_LOCKED} ({@code quartz-skip-locked}): the tuned variant on dsched's
 * clustering extension ({@code jobStore.class = io.dsched.quartz.SkipLockedJobStore} with the
 * matching {@code SkipLockedDelegates} delegate), which acquires, fires and completes triggers
 * without the {@code TRIGGER_ACCESS} lock. It is the bare Quartz that W4 compares dsched with on
 * the same store, and it shows what the store alone changes for a Quartz user.
 */
public class QuartzContestant implements Contestant {

    /** The scheduler name every node of the cluster shares. */
    static final String SCHEDULER_NAME = "bench-quartz";

    private static final String ONE_OFF_GROUP = "bench-one-off";

    private static final String RECURRING_GROUP = "bench-recurring";

    /** Jobs stored per {@code scheduleJobs} call. */
    private static final int BATCH = 500;

    private final Variant variant;

    /** The two configurations. */
    public enum Variant {
        /** Quartz's defaults for a clustered JDBC job store. */
        DEFAULTS("quartz-defaults"),
        /** Quartz's documented tuning for many due triggers. */
        TUNED("quartz-tuned"),
        /** The same tuning on dsched's store, which acquires triggers with {@code SKIP LOCKED}. */
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
    public boolean supports(Workload workload) {
        return true;
    }

    @Override
    public void reset(BenchDatabase db) throws Exception {
        db.dropTablesStartingWith("qrtz_");
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

    @Override
    public void defineRecurring(BenchDatabase db, RecurringPlan plan) throws Exception {
        String cron = quartzCron(plan.cron());
        withCoordinator(db, scheduler -> {
            Map<JobDetail, Set<? extends Trigger>> batch = new LinkedHashMap<>();
            for (int j = 0; j < plan.jobs(); j++) {
                String name = RecurringPlan.jobName(j);
                JobDetail job = JobBuilder.newJob(RecurringJob.class)
                        .withIdentity(name, RECURRING_GROUP)
                        .usingJobData(RecurringJob.JOB, j)
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
        HikariDataSource pool = db.pool("quartz-" + spec.name(), spec.threads() + 3);
        try {
            Properties properties = properties(db, spec.name(), pool);
            properties.setProperty("org.quartz.threadPool.class", "org.quartz.simpl.SimpleThreadPool");
            properties.setProperty("org.quartz.threadPool.threadCount", String.valueOf(spec.threads()));
            if (this.variant != Variant.DEFAULTS) {
                properties.setProperty(
                        "org.quartz.scheduler.batchTriggerAcquisitionMaxCount", String.valueOf(spec.threads()));
                properties.setProperty("org.quartz.scheduler.batchTriggerAcquisitionFireAheadTimeWindow", "1000");
                properties.setProperty("org.quartz.jobStore.acquireTriggersWithinLock", "true");
                properties.setProperty("org.quartz.scheduler.idleWaitTime", "1000");
            }
            if (this.variant == Variant.SKIP_LOCKED) {
                properties.setProperty("org.quartz.jobStore.class", SkipLockedJobStore.class.getName());
                properties.setProperty(
                        "org.quartz.jobStore.driverDelegateClass",
                        (db.isPostgres() ? SkipLockedDelegates.PostgreSQL.class : SkipLockedDelegates.Standard.class)
                                .getName());
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
            Properties properties = properties(db, "bench-coordinator", pool);
            properties.setProperty("org.quartz.threadPool.class", "org.quartz.simpl.ZeroSizeThreadPool");
            Scheduler scheduler = create(properties);
            try {
                work.run(scheduler);
            } finally {
                scheduler.shutdown(false);
            }
        }
    }

    private static Properties properties(BenchDatabase db, String instanceId, HikariDataSource pool) {
        String dataSource = "bench-quartz-" + instanceId;
        DBConnectionManager.getInstance().addConnectionProvider(dataSource, new PoolProvider(pool));
        Properties properties = new Properties();
        properties.setProperty("org.quartz.scheduler.instanceName", SCHEDULER_NAME);
        properties.setProperty("org.quartz.scheduler.instanceId", instanceId);
        properties.setProperty("org.quartz.jobStore.class", "org.quartz.impl.jdbcjobstore.JobStoreTX");
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
                    context.getMergedJobDataMap().getInt(JOB),
                    context.getScheduledFireTime().getTime());
        }
    }
}
