package io.dsched.benchmarks.contestants;

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
import java.time.ZoneOffset;
import java.util.List;
import java.util.stream.IntStream;
import org.jobrunr.configuration.JobRunr;
import org.jobrunr.configuration.JobRunrConfiguration.JobRunrConfigurationResult;
import org.jobrunr.jobs.Job;
import org.jobrunr.jobs.filters.JobServerFilter;
import org.jobrunr.jobs.states.ScheduledState;
import org.jobrunr.scheduling.JobScheduler;
import org.jobrunr.server.BackgroundJobServer;
import org.jobrunr.server.BackgroundJobServerConfiguration;
import org.jobrunr.storage.StorageProvider;
import org.jobrunr.storage.sql.common.SqlStorageProviderFactory;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * JobRunr (org.jobrunr:jobrunr 8.7.0, open source) configured through its plain Java fluent API
 * ({@code JobRunr.configure().useStorageProvider(SqlStorageProviderFactory.using(dataSource))}),
 * no Spring integration, JSON through Jackson 3 ({@code tools.jackson.core:jackson-databind},
 * which JobRunr 8.7 detects on its own). Only instance APIs are used (the {@link JobScheduler} of
 * {@code JobRunrConfigurationResult} and one {@link BackgroundJobServer} per node), never the
 * static {@code BackgroundJob}.
 *
 * <ul>
 *   <li>Variants: {@code jobrunr} (poll interval 15 s, JobRunr's default) and {@code jobrunr-5s}
 *       (poll interval 5 s, the smallest JobRunr accepts on a SQL database).
 *   <li>Storage: {@code SqlStorageProviderFactory.using(pool)} with default options (no table
 *       prefix, {@code DatabaseOptions.CREATE}: JobRunr runs its own migrations and creates its
 *       {@code jobrunr_*} tables and the {@code jobrunr_jobs_stats} view the first time it is
 *       configured, here by the coordinator's client-only configuration).
 *   <li>Node: {@code BackgroundJobServerConfiguration.usingStandardBackgroundJobServerConfiguration()
 *       .andName(spec.name()).andWorkerCount(spec.threads()).andPollInterval(5 or 15 s)}, every
 *       other setting at JobRunr's default (server timeout multiplicand 4, retry filter with 10
 *       retries, page request sizes 1000, succeeded jobs deleted after 36 h); its pool is
 *       {@code threads + 6} connections ({@code BenchDatabase.nodePool}, the same for every contestant). Dashboard, JMX and metrics are off (not configured), so
 *       is carbon-aware processing.
 *   <li>W1: {@code enqueue} runs a client-only configuration (no {@code BackgroundJobServer}) and
 *       stores the jobs with JobRunr's batch API {@code jobScheduler.enqueue(Stream,
 *       JobLambdaFromStream)} ({@code key -> Probe.oneOff(key)}), which saves them in batches of
 *       5,000 ({@code StorageProvider.BATCH_SIZE}); pool of 4 connections.
 *   <li>W2: {@code defineRecurring} stores {@code scheduleRecurrently(jobName(j), plan.cron(),
 *       ZoneOffset.UTC, () -> JobRunrContestant.fire(j, plan.periodSeconds()))} from a client-only configuration.
 *       JobRunr takes six-field crons with seconds, but refuses any schedule whose fires are less
 *       than 5 s apart on a SQL database ("The smallest supported duration between recurring job
 *       instances is 5 seconds"), so {@code "*&#47;2 * * * * *"} is rejected with an {@link
 *       IllegalArgumentException}. The scheduled time of a fire is not a getter of {@code
 *       JobContext}; it is the {@code scheduledAt} of the job's last {@link ScheduledState} (a
 *       recurring job's fire is created as a SCHEDULED job at its cron time), which a global
 *       {@link JobServerFilter} registered with {@code withJobFilter} reads in {@code
 *       onProcessing} on the worker thread, just before the body runs, and hands to the body
 *       through a thread-local. A fire with no scheduled state (never, in the benchmark) falls
 *       back to the most recent cron slot at or before now. As JobRunr works: the master node
 *       creates a recurring job's fires for the next poll interval as SCHEDULED jobs, enqueues those
 *       due before now + poll interval in the same pass, and a node takes ENQUEUED jobs at its next
 *       poll or when one of its workers frees up; so a fire can start up to one poll interval
 *       before or after its scheduled time, and a recurring job gets no new fires while an earlier
 *       one is still enqueued or processing.
 *   <li>W3: not supported. JobRunr notices a dead server after {@code pollInterval x
 *       serverTimeoutPollIntervalMultiplicand}; the multiplicand cannot be set below 4 and the
 *       poll interval not below 5 s, so the earliest detection is 20 s (60 s with the default
 *       15 s), after which the orphaned job is marked FAILED and only re-run by the retry filter's
 *       back-off: not comparable with a ~10 s detection.
 *   <li>W4: not supported (it measures Quartz).
 *   <li>W5, {@code jobrunr-5s} only, at the smallest poll interval JobRunr accepts on a SQL database
 *       (its {@code AbstractStorageProvider} refuses less: "The smallest supported pollInterval is 5
 *       seconds"): one {@code jobScheduler.enqueue(() -> Probe.oneOff(key))} a job, through the
 *       {@code JobScheduler} of the node's own configuration on a node, and through a client-only
 *       configuration (a storage provider and no {@code BackgroundJobServer}, JobRunr's way to
 *       enqueue jobs that other servers run) on a pool of 2 connections for the client. An enqueued
 *       job waits for a node's next poll, whichever JVM stored it: JobRunr wakes no server on an
 *       enqueue (a server fetches ahead of its poll only when a worker frees up).
 *   <li>W6, {@code jobrunr-5s} only, its quickest pickup: JobRunr's open-source edition has no
 *       limit on how many jobs run at once in the cluster, nor on how many start per period; each
 *       server runs as many as its workers. The jobs are W1's, stored by {@link #enqueue}.
 * </ul>
 */
public final class JobRunrContestant implements Contestant {

    /** The configurations under test. */
    public enum Variant {
        /** JobRunr's defaults: poll interval 15 s. */
        DEFAULT("jobrunr", 15),
        /** Poll interval 5 s, the smallest JobRunr takes on a SQL database. */
        POLL_5S("jobrunr-5s", 5);

        private final String contestantName;

        private final int pollSeconds;

        Variant(String contestantName, int pollSeconds) {
            this.contestantName = contestantName;
            this.pollSeconds = pollSeconds;
        }
    }

    private static final ThreadLocal<Long> SCHEDULED_AT = new ThreadLocal<>();

    private final Variant variant;

    /** Creates the {@code jobrunr} contestant (JobRunr's defaults). */
    public JobRunrContestant() {
        this(Variant.DEFAULT);
    }

    /**
     * Creates a contestant.
     * @param variant its configuration
     */
    public JobRunrContestant(Variant variant) {
        this.variant = variant;
    }

    /**
     * The body of recurring job {@code job}, called by JobRunr's worker.
     * @param job the job's index
     * @param periodSeconds the cron's period, for the fallback when the fire has no scheduled time
     */
    public static void fire(int job, int periodSeconds) {
        Long scheduledAt = SCHEDULED_AT.get();
        long at;
        if (scheduledAt != null) {
            at = scheduledAt;
        } else {
            long period = periodSeconds * 1000L;
            at = System.currentTimeMillis() / period * period;
        }
        Probe.recurring(job, at);
    }

    @Override
    public String name() {
        return this.variant.contestantName;
    }

    @Override
    public String library() {
        return "JobRunr " + Provenance.version(JobRunr.class, "org.jobrunr", "jobrunr");
    }

    @Override
    public String latencySetting() {
        return "poll " + this.variant.pollSeconds + " s" + ((this.variant == Variant.POLL_5S) ? ", its minimum" : "")
                + "; no wake-up on an enqueue";
    }

    @Override
    public String limitSetting(LimitShape shape) {
        return "none, JobRunr's open-source edition has no cluster-wide limit; poll " + this.variant.pollSeconds + " s";
    }

    @Override
    public boolean supports(Workload workload) {
        return workload == Workload.W1_ONE_OFF
                || workload == Workload.W2_RECURRING
                || (workload == Workload.W5_SUBMIT_LATENCY && this.variant == Variant.POLL_5S)
                || (workload == Workload.W6_LIMITS && this.variant == Variant.POLL_5S);
    }

    @Override
    public void drop(BenchDatabase db) {
        // a view, not a table; MariaDB would leave it behind a dropped jobrunr_jobs
        db.executeIgnoringErrors(List.of("DROP VIEW jobrunr_jobs_stats"));
        db.dropTablesStartingWith("jobrunr_");
    }

    @Override
    public void reset(BenchDatabase db) {
        drop(db);
        // JobRunr creates its tables as its storage provider is made: here, not in two worker JVMs
        // at once, which race to create them when no client made them first (W5's nodes)
        try (HikariDataSource pool = db.pool("jobrunr-reset", 2)) {
            SqlStorageProviderFactory.using(pool).close();
        }
    }

    @Override
    public Duration enqueue(BenchDatabase db, int count) {
        return withClient(db, (scheduler) -> {
            long start = System.nanoTime();
            scheduler.enqueue(IntStream.range(0, count).mapToObj(Integer::toString), key -> Probe.oneOff(key));
            return Duration.ofNanos(System.nanoTime() - start);
        });
    }

    /** Jobs in state SUCCEEDED. */
    @Override
    public long completedOneOffs(JdbcTemplate jdbc, int enqueued) {
        return jdbc.queryForObject(
                "/* bench-coordinator */ SELECT COUNT(*) FROM jobrunr_jobs WHERE state = 'SUCCEEDED'", Long.class);
    }

    @Override
    public void defineRecurring(BenchDatabase db, RecurringPlan plan) {
        withClient(db, (scheduler) -> {
            for (int j = 0; j < plan.jobs(); j++) {
                int job = j;
                int period = plan.periodSeconds();
                scheduler.scheduleRecurrently(
                        RecurringPlan.jobName(j),
                        plan.cron(),
                        ZoneOffset.UTC,
                        () -> JobRunrContestant.fire(job, period));
            }
            return null;
        });
    }

    /** Runs work with a client-only JobRunr (no background job server) on a pool of its own. */
    private static <T> T withClient(BenchDatabase db, java.util.function.Function<JobScheduler, T> work) {
        try (HikariDataSource pool = db.pool("jobrunr-client", 4)) {
            StorageProvider storage = SqlStorageProviderFactory.using(pool);
            try {
                return work.apply(JobRunr.configure()
                        .useStorageProvider(storage)
                        .initialize()
                        .getJobScheduler());
            } finally {
                storage.close();
            }
        }
    }

    @Override
    public AutoCloseable start(BenchDatabase db, NodeSpec spec) {
        HikariDataSource pool = db.nodePool("jobrunr-" + spec.name(), spec.threads());
        try {
            StorageProvider storage = SqlStorageProviderFactory.using(pool);
            BackgroundJobServerConfiguration configuration =
                    BackgroundJobServerConfiguration.usingStandardBackgroundJobServerConfiguration()
                            .andName(spec.name())
                            .andWorkerCount(spec.threads())
                            .andPollIntervalInSeconds(this.variant.pollSeconds);
            JobRunrConfigurationResult jobRunr = JobRunr.configure()
                    .useStorageProvider(storage)
                    .withJobFilter(new ScheduledAtFilter())
                    .useBackgroundJobServer(configuration)
                    .initialize();
            return new JobRunrSubmissions.Node(
                    jobRunr.getBackgroundJobServer(), jobRunr.getJobScheduler(), storage, pool);
        } catch (RuntimeException ex) {
            pool.close();
            throw ex;
        }
    }

    /** Enqueues through the node's own {@code JobScheduler}. */
    @Override
    public Submitter submitter(AutoCloseable node) {
        return JobRunrSubmissions.enqueuer(((JobRunrSubmissions.Node) node).scheduler());
    }

    /** Enqueues through a client-only configuration: a storage provider, no background job server. */
    @Override
    public Submitter client(BenchDatabase db) {
        return JobRunrSubmissions.client(db);
    }

    /** Hands the scheduled time of the job about to run to its body, on the worker thread. */
    private static final class ScheduledAtFilter implements JobServerFilter {

        @Override
        public void onProcessing(Job job) {
            SCHEDULED_AT.set(job.getLastJobStateOfType(ScheduledState.class)
                    .map(state -> state.getScheduledAt().toEpochMilli())
                    .orElse(null));
        }

        @Override
        public void onProcessingSucceeded(Job job) {
            SCHEDULED_AT.remove();
        }

        @Override
        public void onProcessingFailed(Job job, Exception e) {
            SCHEDULED_AT.remove();
        }
    }
}
