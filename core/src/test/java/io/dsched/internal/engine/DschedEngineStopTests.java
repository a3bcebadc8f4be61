package io.dsched.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dsched.engine.DschedQuartzJob;
import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.ExecutionStatus;
import io.dsched.internal.execution.SettlePipeline;
import io.dsched.internal.store.DatabasePlatform;
import io.dsched.quartz.StartBacklog;
import java.time.Duration;
import java.util.Arrays;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.quartz.core.QuartzSchedulerThread;
import org.quartz.spi.JobFactory;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * How an engine on a clustered JDBC store stops while its scheduler's thread is handing a fire
 * out: the fire reaches its worker after the shutdown began, is left to any node, and Quartz
 * records it complete before the store shuts down. Were it not recorded, its fire would stay
 * executing in the store and the job, which disallows concurrent fires, would keep its triggers
 * blocked until another node counted this one dead.
 */
class DschedEngineStopTests {

    private final SettlePipeline pipeline = new SettlePipeline();

    private final JdbcTemplate jdbc = new JdbcTemplate(this.pipeline.database().dataSource());

    @AfterEach
    void close() {
        this.pipeline.close();
    }

    @Test
    void aFireHandedOutWhileTheEngineStopsIsLeftAndRecordedCompleteBeforeTheStoreShutsDown() throws Exception {
        GracefulShutdown shutdown = new GracefulShutdown(Duration.ZERO, this.pipeline.clock());
        DschedEngine engine = engine(shutdown);
        AtomicBoolean stopped = new AtomicBoolean();
        CountDownLatch inHand = new CountDownLatch(1);
        // the fire is held until the stop has either waited for it inside Quartz's shutdown or
        // returned without waiting
        try {
            String stopThread = DschedEngine.stopThreadName(engine.scheduler());
            fireEverySecond(engine, holding(inHand, () -> stopped.get() || waitsForTheSchedulerThread(stopThread)));
            assertThat(inHand.await(10, TimeUnit.SECONDS)).as("a fire in hand").isTrue();

            shutdown.begin();
            engine.stop();
            stopped.set(true);

            await().atMost(Duration.ofSeconds(10))
                    .until(() -> this.pipeline.attempts().size() == 1);
            ExecutionRecord left = this.pipeline.attempts().get(0);
            assertThat(left.status()).isEqualTo(ExecutionStatus.SCHEDULED);
            assertThat(left.statusReason()).contains("node-1 stopped");
            assertThat(this.pipeline.runs()).as("not run on the stopping node").hasValue(0);
            assertRecordedComplete();
        } finally {
            stopped.set(true);
            engine.destroy();
        }
    }

    @Test
    void aStopThatQuartzCannotFinishShutsItsStoreDownAndLeavesNoThreadOfQuartzBehind() throws Exception {
        GracefulShutdown shutdown = new GracefulShutdown(Duration.ZERO, this.pipeline.clock());
        DschedEngine engine = engine(shutdown);
        engine.lateFiresPatience(Duration.ofMillis(500));
        AtomicBoolean stopped = new AtomicBoolean();
        CountDownLatch inHand = new CountDownLatch(1);
        try {
            fireEverySecond(engine, holding(inHand, stopped::get));
            assertThat(inHand.await(10, TimeUnit.SECONDS)).as("a fire in hand").isTrue();

            shutdown.begin();
            long from = System.nanoTime();
            engine.stop();
            Duration took = Duration.ofNanos(System.nanoTime() - from);
            assertThat(took).isBetween(Duration.ofMillis(500), Duration.ofSeconds(10));

            // Quartz cannot record the fire, as while the database fails: it would retry for ever
            this.jdbc.execute("ALTER TABLE DSCHED_QRTZ_FIRED_TRIGGERS RENAME TO DSCHED_QRTZ_FIRED_AWAY");
            stopped.set(true);
            // the stop's threads and Quartz's own (scheduler thread, check-in, misfire handler) end
            String stopThread = DschedEngine.stopThreadName(engine.scheduler());
            String schedulerName = engine.scheduler().getSchedulerName();
            await().atMost(Duration.ofSeconds(10)).until(() -> Thread.getAllStackTraces().keySet().stream()
                    .map(Thread::getName)
                    .noneMatch((name) -> name.startsWith(stopThread) || name.contains(schedulerName)));
            assertThat(engine.scheduler().isShutdown()).isTrue();
        } finally {
            stopped.set(true);
            engine.destroy();
        }
    }

    private DschedEngine engine(GracefulShutdown shutdown) throws Exception {
        Properties quartz = QuartzSettings.forNode(
                this.pipeline.database().dataSource(),
                DatabasePlatform.H2,
                "stop-" + UUID.randomUUID(),
                "node-1",
                2,
                Duration.ofSeconds(1),
                Duration.ofSeconds(1),
                Duration.ofSeconds(5),
                false);
        // a write Quartz retries (every 15 s by default) sees the store shut down at its next try
        quartz.setProperty("org.quartz.scheduler.dbFailureRetryInterval", "200");
        return new DschedEngine(
                quartz,
                this.pipeline.dispatcher(),
                (scheduler) -> null,
                shutdown,
                true,
                SettlePipeline.STANDING,
                StartBacklog.NONE);
    }

    /**
     * The job factory, which Quartz's scheduler thread calls once it has fired a trigger: it holds
     * the first fire in the scheduler's thread until it may go on.
     */
    private JobFactory holding(CountDownLatch inHand, BooleanSupplier goOn) {
        AtomicBoolean held = new AtomicBoolean();
        return (bundle, scheduler) -> {
            if (held.compareAndSet(false, true)) {
                inHand.countDown();
                await().atMost(Duration.ofSeconds(30)).until(goOn::getAsBoolean);
            }
            return this.pipeline.dispatcher().newJob(bundle, scheduler);
        };
    }

    private static void fireEverySecond(DschedEngine engine, JobFactory factory) throws Exception {
        engine.scheduler().setJobFactory(factory);
        JobDetail job = JobBuilder.newJob(DschedQuartzJob.class)
                .withIdentity(SettlePipeline.JOB, "dsched")
                .build();
        Trigger every = TriggerBuilder.newTrigger()
                .withIdentity(SettlePipeline.JOB, "dsched")
                .forJob(job)
                .startNow()
                .withSchedule(SimpleScheduleBuilder.repeatSecondlyForever()
                        .withMisfireHandlingInstructionNextWithRemainingCount())
                .build();
        engine.scheduler().scheduleJob(job, every);
        engine.scheduler().start();
    }

    /** Quartz recorded the fire complete: none of the node's is left executing, the trigger waits. */
    private void assertRecordedComplete() {
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(this.jdbc.queryForList(
                        "SELECT STATE FROM DSCHED_QRTZ_FIRED_TRIGGERS WHERE INSTANCE_NAME = 'node-1'", String.class))
                .as("fires of the stopped node still recorded")
                .isEmpty());
        assertThat(this.jdbc.queryForObject(
                        "SELECT TRIGGER_STATE FROM DSCHED_QRTZ_TRIGGERS WHERE TRIGGER_NAME = ?",
                        String.class,
                        SettlePipeline.JOB))
                .isEqualTo("WAITING");
    }

    /** Whether the engine's stop waits inside Quartz's shutdown for the scheduler's thread to end. */
    private static boolean waitsForTheSchedulerThread(String stopThread) {
        return Thread.getAllStackTraces().entrySet().stream().anyMatch((thread) -> {
            Thread.State state = thread.getKey().getState();
            return thread.getKey().getName().equals(stopThread)
                    && (state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING)
                    && Arrays.stream(thread.getValue())
                            .anyMatch((frame) -> frame.getClassName().equals(QuartzSchedulerThread.class.getName())
                                    && frame.getMethodName().equals("halt"));
        });
    }
}
