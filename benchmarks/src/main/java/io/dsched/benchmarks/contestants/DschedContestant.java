package io.dsched.benchmarks.contestants;

import io.dsched.annotation.DistributedScheduled;
import io.dsched.annotation.JobHandler;
import io.dsched.benchmarks.BenchDatabase;
import io.dsched.benchmarks.Contestant;
import io.dsched.benchmarks.LimitShape;
import io.dsched.benchmarks.NodeSpec;
import io.dsched.benchmarks.Probe;
import io.dsched.benchmarks.Provenance;
import io.dsched.benchmarks.RecurringPlan;
import io.dsched.benchmarks.Submitter;
import io.dsched.benchmarks.Workload;
import io.dsched.definition.Schedule;
import io.dsched.execution.JobContext;
import io.dsched.jobs.JobScheduler;
import io.dsched.jobs.OneOff;
import io.dsched.jobs.RecurringJob;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * dsched itself, through its public API only: one Spring Boot application per node, with the
 * starter's defaults (node timeout 10 s, heartbeat 2 s, poll interval 500 ms, claims with {@code
 * FOR UPDATE SKIP LOCKED}) and {@code dsched.threads} set to the node's threads, on a pool of {@code threads + 6}
 * connections ({@code BenchDatabase.nodePool}, the same for every contestant). One-off jobs are
 * submitted with {@code JobScheduler.submitAll} from a node with {@code dsched.run-jobs=false};
 * recurring jobs are runtime jobs ({@code JobScheduler.create}) on a cron in UTC.
 *
 * <p>W5, one-offs submitted while the nodes run, one {@code JobScheduler.submit(OneOff.of(...))}
 * a job: on a node, through the {@code JobScheduler} of the running node; by a client, through a
 * node with {@code dsched.run-jobs=false} in the coordinator. Variants:
 *
 * <ul>
 *   <li>{@code dsched}: the starter's defaults, its best for latency: a submission due now wakes
 *       the claim of the node that stored it at once, {@code dsched.queue.notify} (default on, on
 *       PostgreSQL) commits a {@code NOTIFY} with it that wakes the claim of every node, and every
 *       node polls every 500 ms ({@code dsched.queue.poll-interval}) besides. Every workload.
 *   <li>{@code dsched-poll}: the same with {@code dsched.queue.notify=false}, so that W5 shows what
 *       the notifications gain: the submitting node's own wake-up and the poll. W5 only. (A build
 *       of dsched without the property ignores it, and then both rows measure the same thing; their
 *       setting for latency in the tables says so.)
 *   <li>{@code dsched-redis}: the notices through Redis's pub/sub ({@code
 *       dsched.queue.notify-through=redis}), on the Redis the run names with {@code --redis
 *       host:port}: what MySQL and MariaDB, which have no notices of their own, get. W5 only, and
 *       only in a run with {@code --redis}.
 *   <li>{@code dsched-virtual}: the defaults with {@code spring.threads.virtual.enabled=true}, so
 *       that the workers are virtual threads. W1 and W5, in a run on Java 21 or later only.
 *   <li>{@code dsched-writes-at-once}: the defaults with {@code
 *       dsched.cluster.writes-wait-for-starts=0}, so that the outcomes of successes and Quartz's
 *       completions are written as they come instead of after the fires due with them have
 *       started: what that wait gains or costs in the same run. W2 and W4.
 * </ul>
 *
 * <p>W6, one-offs under a cluster-wide limit: the nodes and the client that stores the jobs are
 * {@link LimitedNode}s, which declare two more handlers ({@link LimitedHandlers}) with the body of
 * the plain one-off, {@code @JobHandler(maxConcurrent = 5)} and {@code @JobHandler(rate =
 * "100/1s")}; {@link #enqueueLimited} stores the jobs for the one of the shape, by {@code
 * JobScheduler.submitAll} as {@link #enqueue} does. No other workload declares them.
 */
public final class DschedContestant implements Contestant {

    /** The configurations under test. */
    public enum Variant {
        /** The starter's defaults. */
        DEFAULTS("dsched", null, false),
        /** {@code dsched.queue.notify=false}, for W5. */
        POLL("dsched-poll", false, false),
        /** {@code dsched.queue.notify-through=redis}, for W5. */
        REDIS("dsched-redis", null, true),
        /** {@code spring.threads.virtual.enabled=true}, for W1 and W5 on Java 21 and later. */
        VIRTUAL("dsched-virtual", null, false),
        /** {@code dsched.cluster.writes-wait-for-starts=0}, for W2 and W4. */
        WRITES_AT_ONCE("dsched-writes-at-once", null, false);

        private final String contestantName;

        /** {@code dsched.queue.notify}, or {@code null} to leave it at its default. */
        private final Boolean notify;

        /** Whether notices go through Redis. */
        private final boolean redis;

        Variant(String contestantName, Boolean notify, boolean redis) {
            this.contestantName = contestantName;
            this.notify = notify;
            this.redis = redis;
        }
    }

    static final String ONE_OFF = "bench.one-off";

    static final String ONE_OFF_MAX_CONCURRENT = "bench.one-off.max-concurrent";

    static final String ONE_OFF_RATE = "bench.one-off.rate";

    /** Where Redis is, {@code host:port}, when the run has one (the coordinator's {@code --redis}). */
    static final String REDIS = "bench.redis";

    static final String RECURRING = "bench.recurring";

    /** The name of W7's sharded job. */
    public static final String SHARDED = "bench.sharded";

    private static final int SUBMIT_BATCH = 1000;

    private final Variant variant;

    /** Creates the {@code dsched} contestant (the starter's defaults). */
    public DschedContestant() {
        this(Variant.DEFAULTS);
    }

    /**
     * Creates a contestant.
     * @param variant its configuration
     */
    public DschedContestant(Variant variant) {
        this.variant = variant;
    }

    @Override
    public String name() {
        return this.variant.contestantName;
    }

    @Override
    public String library() {
        return "dsched " + Provenance.version(JobScheduler.class, "io.dsched", "dsched-core")
                + " (the commit above), on Quartz "
                + Provenance.version(org.quartz.Scheduler.class, "org.quartz-scheduler", "quartz");
    }

    @Override
    public String failureDetection() {
        return "dead 10 s after its last heartbeat (every 2 s), judged every 2 s; re-run at once";
    }

    @Override
    public String latencySetting() {
        if (this.variant.redis) {
            return "`dsched.queue.notify-through=redis`: a submission wakes every node through Redis's pub/sub;"
                    + " 500 ms poll";
        }
        if (this.variant == Variant.VIRTUAL) {
            return "defaults, and `spring.threads.virtual.enabled=true`: the workers are virtual threads";
        }
        String setting = (this.variant.notify == null)
                ? "defaults: a submission wakes its own node; `dsched.queue.notify` on wakes every node;"
                        + " 500 ms poll"
                : "`dsched.queue.notify=false`: a submission wakes its own node; 500 ms poll";
        return knowsQueueNotify() ? setting : setting + " (this build has no `dsched.queue.notify`)";
    }

    /**
     * Tells whether the dsched on the class path has {@code dsched.queue.notify}, by the
     * configuration metadata its starter ships: a build without it ignores the property, and then
     * {@code dsched} and {@code dsched-poll} run alike.
     */
    private static boolean knowsQueueNotify() {
        try {
            Enumeration<URL> files =
                    DschedContestant.class.getClassLoader().getResources("META-INF/spring-configuration-metadata.json");
            while (files.hasMoreElements()) {
                try (InputStream in = files.nextElement().openStream()) {
                    if (new String(in.readAllBytes(), StandardCharsets.UTF_8).contains("\"dsched.queue.notify\"")) {
                        return true;
                    }
                }
            }
            return false;
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    @Override
    public boolean supports(Workload workload) {
        if (this.variant == Variant.VIRTUAL) {
            // where the JVM has virtual threads
            return Runtime.version().feature() >= 21
                    && (workload == Workload.W1_ONE_OFF || workload == Workload.W5_SUBMIT_LATENCY);
        }
        if (this.variant == Variant.WRITES_AT_ONCE) {
            return workload == Workload.W2_RECURRING || workload == Workload.W4_GUARD_OVERHEAD;
        }
        if (this.variant.redis) {
            // only where the run names a Redis
            return workload == Workload.W5_SUBMIT_LATENCY && System.getProperty(REDIS) != null;
        }
        return this.variant == Variant.DEFAULTS || workload == Workload.W5_SUBMIT_LATENCY;
    }

    @Override
    public void drop(BenchDatabase db) {
        db.dropTablesStartingWith("dsched_");
    }

    @Override
    public void reset(BenchDatabase db) {
        drop(db);
        // the first context creates the schema
        try (ConfigurableApplicationContext context = context(db, "bench-reset", 1, false, Variant.DEFAULTS)) {
            context.getBean(JobScheduler.class);
        }
    }

    @Override
    public Duration enqueue(BenchDatabase db, int count) {
        try (ConfigurableApplicationContext context = context(db, "bench-client", 1, false, Variant.DEFAULTS)) {
            return submitAll(context.getBean(JobScheduler.class), ONE_OFF, count);
        }
    }

    /** Submits to the handler that declares the shape's limit, from a node that declares it too. */
    @Override
    public Duration enqueueLimited(BenchDatabase db, int count, LimitShape shape) {
        try (ConfigurableApplicationContext context =
                context(LimitedNode.class, db, "bench-client", 1, false, Variant.DEFAULTS)) {
            return submitAll(context.getBean(JobScheduler.class), limitedHandler(shape), count);
        }
    }

    private static Duration submitAll(JobScheduler scheduler, String handler, int count) {
        long start = System.nanoTime();
        List<OneOff> batch = new ArrayList<>(SUBMIT_BATCH);
        for (int i = 0; i < count; i++) {
            batch.add(OneOff.of(handler, Integer.toString(i)));
            if (batch.size() == SUBMIT_BATCH || i == count - 1) {
                scheduler.submitAll(batch);
                batch.clear();
            }
        }
        return Duration.ofNanos(System.nanoTime() - start);
    }

    private static String limitedHandler(LimitShape shape) {
        return switch (shape) {
            case CONCURRENCY -> ONE_OFF_MAX_CONCURRENT;
            case RATE -> ONE_OFF_RATE;
        };
    }

    @Override
    public boolean declaresLimits() {
        return true;
    }

    @Override
    public String limitSetting(LimitShape shape) {
        return switch (shape) {
            case CONCURRENCY -> "`@JobHandler(maxConcurrent = " + LimitShape.MAX_CONCURRENT + ")`";
            case RATE -> "`@JobHandler(rate = \"" + LimitShape.RATE_LIMIT + "\")`";
        };
    }

    /** Attempts recorded SUCCEEDED in dsched's execution history, one a job. */
    @Override
    public long completedOneOffs(JdbcTemplate jdbc, int enqueued) {
        return jdbc.queryForObject(
                "/* bench-coordinator */ SELECT COUNT(DISTINCT idempotency_key) FROM dsched_execution WHERE job_name = ? AND status = 'SUCCEEDED'",
                Long.class,
                ONE_OFF);
    }

    @Override
    public void defineRecurring(BenchDatabase db, RecurringPlan plan) {
        try (ConfigurableApplicationContext context = context(db, "bench-client", 1, false, Variant.DEFAULTS)) {
            JobScheduler scheduler = context.getBean(JobScheduler.class);
            for (int j = 0; j < plan.jobs(); j++) {
                scheduler.create(RecurringJob.of(
                        RecurringPlan.jobName(j), RECURRING, new Schedule.Cron(plan.cron(), ZoneOffset.UTC), j));
            }
        }
    }

    @Override
    public AutoCloseable start(BenchDatabase db, NodeSpec spec) {
        if (spec.workload() == Workload.W7_SHARDS) {
            // the sharded job's schedule and shards, from the run's plan
            return context(
                    ShardedNode.class,
                    db,
                    spec.name(),
                    spec.threads(),
                    this.variant,
                    Map.of(
                            "bench.w7.cron", spec.recurring().cron(),
                            "bench.w7.shards", String.valueOf(spec.recurring().jobs())));
        }
        Class<?> source = (spec.workload() == Workload.W6_LIMITS) ? LimitedNode.class : Node.class;
        return context(source, db, spec.name(), spec.threads(), true, this.variant);
    }

    /** Submits through the node's own {@code JobScheduler}. */
    @Override
    public Submitter submitter(AutoCloseable node) {
        JobScheduler scheduler = ((ConfigurableApplicationContext) node).getBean(JobScheduler.class);
        return (key) -> scheduler.submit(OneOff.of(ONE_OFF, key));
    }

    /** Submits through a node with {@code dsched.run-jobs=false}, of the variant's configuration. */
    @Override
    public Submitter client(BenchDatabase db) {
        ConfigurableApplicationContext context = context(db, "bench-client", 1, false, this.variant);
        JobScheduler scheduler = context.getBean(JobScheduler.class);
        return Submitter.closing((key) -> scheduler.submit(OneOff.of(ONE_OFF, key)), context);
    }

    private static ConfigurableApplicationContext context(
            BenchDatabase db, String node, int threads, boolean runJobs, Variant variant) {
        return context(Node.class, db, node, threads, runJobs, variant);
    }

    /** Starts a node of the given configuration with properties of its workload's own. */
    private static ConfigurableApplicationContext context(
            Class<?> source, BenchDatabase db, String node, int threads, Variant variant, Map<String, String> extra) {
        Map<String, Object> properties = properties(db, node, threads, true, variant);
        properties.putAll(extra);
        return run(source, properties);
    }

    /** Starts a dsched application of the given configuration. */
    static ConfigurableApplicationContext context(
            Class<?> source, BenchDatabase db, String node, int threads, boolean runJobs, Variant variant) {
        return run(source, properties(db, node, threads, runJobs, variant));
    }

    private static ConfigurableApplicationContext run(Class<?> source, Map<String, Object> properties) {
        return new SpringApplicationBuilder(source)
                .web(WebApplicationType.NONE)
                .properties(properties)
                .registerShutdownHook(false)
                .run();
    }

    private static Map<String, Object> properties(
            BenchDatabase db, String node, int threads, boolean runJobs, Variant variant) {
        Map<String, Object> properties = new HashMap<>();
        properties.put("bench.db.url", db.url());
        properties.put("bench.db.user", db.user());
        properties.put("bench.db.password", db.password());
        properties.put("bench.threads", threads);
        properties.put("dsched.node-id", node);
        properties.put("dsched.threads", threads);
        properties.put("dsched.run-jobs", runJobs);
        properties.put("dsched.jdbc.initialize-schema", "always");
        if (variant.notify != null) {
            properties.put("dsched.queue.notify", variant.notify);
        }
        if (variant == Variant.VIRTUAL) {
            properties.put("spring.threads.virtual.enabled", true);
        }
        if (variant == Variant.WRITES_AT_ONCE) {
            properties.put("dsched.cluster.writes-wait-for-starts", "0");
        }
        if (variant.redis) {
            properties.put("dsched.queue.notify-through", "redis");
            properties.put(REDIS, System.getProperty(REDIS));
        }
        properties.put("spring.main.banner-mode", "off");
        return properties;
    }

    /** A node: dsched's auto-configuration, a DataSource and the two handlers. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    public static class Node {

        @Bean(destroyMethod = "close")
        DataSource dataSource(org.springframework.core.env.Environment environment) {
            BenchDatabase db = new BenchDatabase(
                    environment.getProperty("bench.db.url"),
                    environment.getProperty("bench.db.user"),
                    environment.getProperty("bench.db.password"));
            return db.nodePool("dsched", environment.getProperty("bench.threads", Integer.class, 10));
        }

        @Bean
        Handlers handlers() {
            return new Handlers();
        }

        /** Redis, for {@code dsched-redis}, at {@code host:port}. */
        @Bean
        @ConditionalOnProperty(name = "dsched.queue.notify-through", havingValue = "redis")
        LettuceConnectionFactory redisConnectionFactory(org.springframework.core.env.Environment environment) {
            String[] redis = environment.getProperty(REDIS).split(":");
            return new LettuceConnectionFactory(new RedisStandaloneConfiguration(redis[0], Integer.parseInt(redis[1])));
        }
    }

    /** The job bodies. */
    public static class Handlers {

        @JobHandler(ONE_OFF)
        public void oneOff(String key) {
            Probe.oneOff(key);
        }

        @JobHandler(RECURRING)
        public void recurring(Integer job, JobContext context) {
            Probe.recurring(job, context.scheduledAt().toEpochMilli());
        }
    }

    /** A node of W6: a node with the handlers that declare W6's limits besides its own. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    public static class LimitedNode extends Node {

        @Bean
        LimitedHandlers limitedHandlers() {
            return new LimitedHandlers();
        }
    }

    /** A node of W7: a node with the sharded job besides its handlers. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    public static class ShardedNode extends Node {

        @Bean
        ShardedJob shardedJob() {
            return new ShardedJob();
        }
    }

    /** W7's job: each fire split into {@code bench.w7.shards} shards, each a timed hold. */
    public static class ShardedJob {

        @DistributedScheduled(name = SHARDED, cron = "${bench.w7.cron}", shards = "${bench.w7.shards}")
        public void shard(JobContext context) {
            Probe.shard(context.shardIndex(), context.scheduledAt().toEpochMilli());
        }
    }

    /** W6's job bodies: the plain one-off's, under a cluster-wide limit. */
    public static class LimitedHandlers {

        @JobHandler(value = ONE_OFF_MAX_CONCURRENT, maxConcurrent = LimitShape.MAX_CONCURRENT)
        public void maxConcurrent(String key) {
            Probe.oneOff(key);
        }

        @JobHandler(value = ONE_OFF_RATE, rate = LimitShape.RATE_LIMIT)
        public void rate(String key) {
            Probe.oneOff(key);
        }
    }
}
