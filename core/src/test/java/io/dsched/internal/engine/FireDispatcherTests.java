package io.dsched.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dsched.engine.DschedQuartzJob;
import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.ExecutionStatus;
import io.dsched.internal.execution.SettlePipeline;
import io.dsched.quartz.StartBacklog;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Date;
import java.util.List;
import java.util.Properties;
import java.util.UUID;
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

    private static final String JOB = SettlePipeline.JOB;

    private final SettlePipeline pipeline = new SettlePipeline();

    private final Clock clock = this.pipeline.clock();

    private final FireDispatcher dispatcher = this.pipeline.dispatcher();

    private final Instant scheduledAt = this.clock.instant().truncatedTo(ChronoUnit.SECONDS);

    @AfterEach
    void close() {
        this.pipeline.close();
    }

    @Test
    void aFireRunsOnItsWorker() {
        this.dispatcher.dispatch(context(bundle()));

        assertThat(this.pipeline.runs()).hasValue(1);
        await().atMost(Duration.ofSeconds(10)).until(() -> attempt().status() == ExecutionStatus.SUCCEEDED);
    }

    @Test
    void aFireThatReachesItsWorkerOnceTheNodeStopsRunningFiresIsQueuedForAnyNodeUnrun() {
        this.dispatcher.stopRunning();
        this.dispatcher.dispatch(context(bundle()));

        assertThat(this.pipeline.runs()).as("not run on the stopping node").hasValue(0);
        ExecutionRecord queued = attempt();
        assertThat(queued.status()).isEqualTo(ExecutionStatus.SCHEDULED);
        assertThat(queued.scheduledAt()).isEqualTo(this.scheduledAt);
        assertThat(queued.dueAt()).isBeforeOrEqualTo(this.clock.instant());
        assertThat(queued.statusReason()).contains("node-1 stopped");
        assertThat(this.pipeline.wakeUps()).hasPositiveValue();
    }

    @Test
    void anEngineStopsItsDispatcherRunningFiresAsSoonAsTheShutdownBegins() throws Exception {
        Properties quartz = new Properties();
        quartz.setProperty("org.quartz.scheduler.instanceName", "dispatcher-" + UUID.randomUUID());
        quartz.setProperty("org.quartz.threadPool.threadCount", "1");
        quartz.setProperty("org.quartz.jobStore.class", "org.quartz.simpl.RAMJobStore");
        GracefulShutdown shutdown = new GracefulShutdown(Duration.ZERO, this.clock);
        DschedEngine engine = new DschedEngine(
                quartz,
                this.dispatcher,
                (scheduler) -> null,
                shutdown,
                false,
                SettlePipeline.STANDING,
                StartBacklog.NONE);
        try {
            shutdown.begin();

            this.dispatcher.dispatch(context(bundle()));

            assertThat(this.pipeline.runs())
                    .as("not run once the shutdown began")
                    .hasValue(0);
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
        List<ExecutionRecord> all = this.pipeline.attempts().stream()
                .filter((attempt) -> attempt.scheduledAt().equals(this.scheduledAt))
                .toList();
        assertThat(all).as("one attempt of the fire").hasSize(1);
        return all.get(0);
    }
}
