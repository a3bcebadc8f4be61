package io.dsched.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dsched.engine.DschedQuartzJob;
import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.ExecutionStatus;
import io.dsched.internal.definition.JobRegistry;
import io.dsched.internal.execution.AttemptRunner;
import io.dsched.internal.execution.JobGuard;
import io.dsched.internal.execution.JobTarget;
import io.dsched.internal.execution.JobTargets;
import io.dsched.internal.execution.StopRequests;
import io.dsched.internal.execution.TestPipeline;
import io.dsched.internal.retry.RetryPolicy;
import io.dsched.internal.store.ExecutionRepository;
import io.dsched.internal.store.InMemoryStore;
import io.dsched.quartz.NodeStanding;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.TriggerBuilder;
import org.quartz.impl.JobExecutionContextImpl;
import org.quartz.spi.OperableTrigger;
import org.quartz.spi.TriggerFiredBundle;

/**
 * What the dispatcher does with a fire that reaches a worker, on an in-memory H2 database with
 * the real pipeline: it runs it, and once its node stops running fires (Quartz's scheduler thread
 * still hands out what it had acquired) it leaves it to any node instead. H2 claims no fire in the
 * fire's transaction: {@code FireExecutorTests} puts back one claimed there.
 */
class FireDispatcherTests {

    private static final String JOB = "settle";

    private final InMemoryStore database = new InMemoryStore();

    private final ExecutionRepository executions = this.database.executions();

    private final Clock clock = Clock.systemUTC();

    private final AtomicInteger runs = new AtomicInteger();

    private final AtomicInteger wakeUps = new AtomicInteger();

    private final StopRequests stops = new StopRequests((ids) -> Map.of(), Duration.ofHours(1), Duration.ofSeconds(1));

    private final JobGuard guard = new JobGuard(null, null, Duration.ofMinutes(1), Duration.ZERO, this.clock, "dsched");

    private final AttemptRunner runner =
            TestPipeline.runner(new Targets(), this.database.store(), this.guard, this.clock, this.stops);

    private final FireDispatcher dispatcher = new FireDispatcher(
            TestPipeline.fires(
                    this.database.store(),
                    this.runner,
                    this.guard,
                    new Targets(),
                    this.wakeUps::incrementAndGet,
                    this.clock),
            new JobRegistry(),
            this.clock);

    private final Instant scheduledAt = this.clock.instant().truncatedTo(ChronoUnit.SECONDS);

    @AfterEach
    void close() {
        this.runner.close();
        this.stops.close();
        this.database.store().close();
    }

    @Test
    void aFireRunsOnItsWorker() {
        this.dispatcher.dispatch(context(bundle()));

        assertThat(this.runs).hasValue(1);
        await().atMost(Duration.ofSeconds(10)).until(() -> attempt().status() == ExecutionStatus.SUCCEEDED);
    }

    @Test
    void aFireThatReachesItsWorkerOnceTheNodeStopsRunningFiresIsQueuedForAnyNodeUnrun() {
        this.dispatcher.stopRunning();
        this.dispatcher.dispatch(context(bundle()));

        assertThat(this.runs).as("not run on the stopping node").hasValue(0);
        ExecutionRecord queued = attempt();
        assertThat(queued.status()).isEqualTo(ExecutionStatus.SCHEDULED);
        assertThat(queued.scheduledAt()).isEqualTo(this.scheduledAt);
        assertThat(queued.dueAt()).isBeforeOrEqualTo(this.clock.instant());
        assertThat(queued.statusReason()).contains("node-1 stopped");
        assertThat(this.wakeUps).hasPositiveValue();
    }

    @Test
    void anEngineStopsItsDispatcherRunningFiresAsSoonAsTheShutdownBegins() throws Exception {
        Properties quartz = new Properties();
        quartz.setProperty("org.quartz.scheduler.instanceName", "dispatcher-" + UUID.randomUUID());
        quartz.setProperty("org.quartz.threadPool.threadCount", "1");
        quartz.setProperty("org.quartz.jobStore.class", "org.quartz.simpl.RAMJobStore");
        GracefulShutdown shutdown = new GracefulShutdown(Duration.ZERO, this.clock);
        DschedEngine engine =
                new DschedEngine(quartz, this.dispatcher, (scheduler) -> null, shutdown, false, new Standing());
        try {
            shutdown.begin();

            this.dispatcher.dispatch(context(bundle()));

            assertThat(this.runs).as("not run once the shutdown began").hasValue(0);
            assertThat(attempt().status()).isEqualTo(ExecutionStatus.SCHEDULED);
        } finally {
            engine.destroy();
        }
    }

    private TriggerFiredBundle bundle() {
        JobDetail job = JobBuilder.newJob(DschedQuartzJob.class)
                .withIdentity(JOB, "dsched")
                .build();
        OperableTrigger trigger = (OperableTrigger) TriggerBuilder.newTrigger()
                .forJob(job)
                .startAt(Date.from(this.scheduledAt))
                .build();
        Date due = Date.from(this.scheduledAt);
        return new TriggerFiredBundle(job, trigger, null, false, new Date(), due, null, null);
    }

    private static JobExecutionContextImpl context(TriggerFiredBundle fire) {
        return new JobExecutionContextImpl(null, fire, new DschedQuartzJob((context) -> {}));
    }

    private ExecutionRecord attempt() {
        List<ExecutionRecord> all = StreamSupport.stream(
                        this.executions.findAll().spliterator(), false)
                .filter((attempt) ->
                        attempt.idempotencyKey().equals(ExecutionRecord.idempotencyKey(JOB, this.scheduledAt)))
                .toList();
        assertThat(all).as("one attempt of the fire").hasSize(1);
        return all.get(0);
    }

    private static final class Standing implements NodeStanding {

        @Override
        public boolean takesFires() {
            return true;
        }

        @Override
        public Optional<Set<String>> liveNodes() {
            return Optional.empty();
        }
    }

    private final class Targets implements JobTargets {

        @Override
        public Optional<JobTarget> find(String name) {
            RetryPolicy once = new RetryPolicy(
                    1, Duration.ofSeconds(1), 1.0, Duration.ofSeconds(1), Duration.ZERO, List.of(), List.of());
            return JOB.equals(name)
                    ? Optional.of(new JobTarget(
                            name, once, null, false, null, null, (context, payload) -> runs.incrementAndGet()))
                    : Optional.empty();
        }

        @Override
        public Set<String> names() {
            return Set.of(JOB);
        }
    }
}
