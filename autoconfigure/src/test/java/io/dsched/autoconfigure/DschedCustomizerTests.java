package io.dsched.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dsched.annotation.DistributedScheduled;
import io.dsched.internal.engine.DschedEngine;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.Ordered;

class DschedCustomizerTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, DschedAutoConfiguration.class));

    @Test
    void customizersRunInOrderAfterThePropertiesAreBoundAndEachSeesTheOnesBefore() {
        List<String> calls = new CopyOnWriteArrayList<>();
        this.contextRunner
                .withPropertyValues(
                        "spring.datasource.url=jdbc:h2:mem:customizer-order;DB_CLOSE_DELAY=-1",
                        "dsched.threads=3",
                        "dsched.cluster.name=billing",
                        "dsched.node-id=billing-1")
                // registered first, ordered last: the order decides, not the registration
                .withBean("second", DschedCustomizer.class, () -> new Recording("second", 2, calls, "7"))
                .withBean("first", DschedCustomizer.class, () -> new Recording("first", 1, calls, "5"))
                .run((context) -> {
                    assertThat(context).hasNotFailed();
                    assertThat(calls)
                            .containsExactly(
                                    "first saw 3 threads on h2 for billing-1 of billing",
                                    "second saw 5 threads on h2 for billing-1 of billing");
                    assertThat(context.getBean(DschedEngine.class)
                                    .scheduler()
                                    .getMetaData()
                                    .getThreadPoolSize())
                            .isEqualTo(7);
                });
    }

    @Test
    void aCustomizedQuartzPropertyChangesHowTheNodeRunsItsJobs() {
        this.contextRunner
                .withPropertyValues("spring.datasource.url=jdbc:h2:mem:customizer-threads;DB_CLOSE_DELAY=-1")
                .withBean(
                        DschedCustomizer.class,
                        () -> (settings) ->
                                settings.setQuartzProperty("org.quartz.threadPool.threadNamePrefix", "billing-worker"))
                .withBean(ThreadRecordingJob.class)
                .run((context) -> {
                    assertThat(context).hasNotFailed();
                    Queue<String> threads = context.getBean(ThreadRecordingJob.class).threads;
                    await().atMost(Duration.ofSeconds(30)).until(() -> !threads.isEmpty());
                    assertThat(threads)
                            .allSatisfy((thread) -> assertThat(thread).startsWith("billing-worker-"));
                });
    }

    @Test
    void aCustomizerCannotChangeWhatTiesTheNodeToItsCluster() {
        this.contextRunner
                .withPropertyValues("spring.datasource.url=jdbc:h2:mem:customizer-reserved;DB_CLOSE_DELAY=-1")
                .withBean(
                        DschedCustomizer.class,
                        () -> (settings) -> settings.setQuartzProperty("org.quartz.scheduler.instanceId", "AUTO"))
                .run((context) -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure())
                            .rootCause()
                            .hasMessageContaining("cannot set org.quartz.scheduler.instanceId")
                            .hasMessageContaining("dsched.node-id");
                });
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "org.quartz.jobStore.lockHandler.class",
                "org.quartz.jobStore.selectWithLockSQL",
                "org.quartz.jobStore.acquireTriggersWithinLock",
                "org.quartz.scheduler.batchTriggerAcquisitionFireAheadTimeWindow",
                "org.quartz.dataSource.elsewhere.URL"
            })
    void aCustomizerCannotLoosenQuartzsLockNorMoveItsTables(String name) {
        this.contextRunner
                .withPropertyValues("spring.datasource.url=jdbc:h2:mem:customizer-lock;DB_CLOSE_DELAY=-1")
                .withBean(DschedCustomizer.class, () -> (settings) -> settings.setQuartzProperty(name, "x"))
                .run((context) -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("cannot set " + name);
                });
    }

    @Test
    void aCustomizerCanSetOnlyQuartzProperties() {
        this.contextRunner
                .withPropertyValues("spring.datasource.url=jdbc:h2:mem:customizer-name;DB_CLOSE_DELAY=-1")
                .withBean(DschedCustomizer.class, () -> (settings) -> settings.setQuartzProperty("threadCount", "4"))
                .run((context) -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure())
                            .rootCause()
                            .hasMessageContaining("'threadCount' is not the name of a Quartz property");
                });
    }

    /** Records what it saw, then sets the thread count. */
    record Recording(String name, int order, List<String> calls, String threads) implements DschedCustomizer, Ordered {

        @Override
        public void customize(DschedEngineSettings settings) {
            this.calls.add(this.name + " saw " + settings.getQuartzProperty("org.quartz.threadPool.threadCount")
                    + " threads on " + settings.database() + " for " + settings.nodeId() + " of "
                    + settings.clusterName());
            settings.setQuartzProperty("org.quartz.threadPool.threadCount", this.threads);
        }

        @Override
        public int getOrder() {
            return this.order;
        }
    }

    /** A job that records the threads it runs on. */
    static class ThreadRecordingJob {

        final Queue<String> threads = new ConcurrentLinkedQueue<>();

        @DistributedScheduled(name = "record-thread", fixedRate = "1s")
        public void run() {
            this.threads.add(Thread.currentThread().getName());
        }
    }
}
