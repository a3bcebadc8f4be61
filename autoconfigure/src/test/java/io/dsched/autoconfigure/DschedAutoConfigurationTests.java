package io.dsched.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.dsched.internal.engine.DschedEngine;
import io.dsched.internal.engine.NodeId;
import io.dsched.internal.execution.JobGuard;
import io.dsched.internal.store.DatabasePlatform;
import java.util.Optional;
import javax.sql.DataSource;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.jdbc.DataSourceBuilder;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;

class DschedAutoConfigurationTests {

    private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class, DschedAutoConfiguration.class));

    private final ApplicationContextRunner withH2 =
            this.contextRunner.withPropertyValues("spring.datasource.url=jdbc:h2:mem:autoconfig;DB_CLOSE_DELAY=-1");

    @Test
    void startsAnEngineOnTheApplicationsDataSourceWithAGeneratedNodeId() {
        this.withH2.run((context) -> {
            assertThat(context).hasSingleBean(DschedEngine.class);
            assertThat(context.getBean(DschedJdbc.class).platform()).isEqualTo(DatabasePlatform.H2);
            assertThat(context.getBean(NodeId.class).value()).matches(".+-[0-9a-f]{6}");
            assertThat(context.getBean(DschedEngine.class)
                            .scheduler()
                            .getMetaData()
                            .isJobStoreClustered())
                    .isTrue();
        });
    }

    @Test
    void aGroupWithWorkersOfItsOwnGrowsTheQuartzPoolAndAGroupTheNodeDoesNotServeFailsStartUp() {
        this.withH2
                .withPropertyValues(
                        "dsched.threads=3", "dsched.node.groups=reports,default", "dsched.node.group-threads.reports=2")
                .run((context) -> {
                    assertThat(context).hasNotFailed();
                    assertThat(context.getBean(DschedEngine.class)
                                    .scheduler()
                                    .getMetaData()
                                    .getThreadPoolSize())
                            .isEqualTo(5);
                });
        this.withH2.withPropertyValues("dsched.node.group-threads.billing=2").run((context) -> assertThat(context)
                .getFailure()
                .rootCause()
                .hasMessageContaining("dsched.node.group-threads.billing: this node does not serve group"));
    }

    @Test
    void buildsOnePayloadMapperForSubmissionsAndHandlersAsItStartsNotAtTheFirstSubmission() {
        this.withH2.run((context) -> {
            assertThat(context).hasSingleBean(PayloadJsonMapper.class);
            assertThat(context.getBean(PayloadJsonMapper.class).built()).isTrue();
        });
    }

    @Test
    void definesItsBeansUnderTheNamesThatApplicationsOverrideAndQualifyThem() {
        this.withH2.run((context) -> assertThat(context.getBeanDefinitionNames())
                .contains(
                        "dschedJobRegistry",
                        "distributedScheduledBeanPostProcessor",
                        "dschedHandlerRegistry",
                        "jobHandlerBeanPostProcessor",
                        "dschedLazyInitializationExcludeFilter",
                        "dschedPayloadJsonMapper",
                        "dschedNodeId",
                        "dschedJdbc",
                        "dschedSchemaInitializer",
                        "dschedLockProvider",
                        "dschedRepositories",
                        "dschedExecutionRepository",
                        "dschedDeadLetterRepository",
                        "dschedExecutionStore",
                        "dschedJobDefinitionStore",
                        "dschedDeploymentStore",
                        "dschedDeploymentLock",
                        "dschedJobRemovals",
                        "dschedJobGuard",
                        "dschedJobTargets",
                        "dschedRuntimeJobs",
                        "dschedJobScheduler",
                        "dschedStopRequests",
                        "dschedAttemptRunner",
                        "dschedFireExecutor",
                        "dschedGracefulShutdown",
                        "dschedExecutionQueue",
                        "dschedDatabaseClock",
                        "dschedClockSkew",
                        "dschedClusterMembership",
                        "dschedDeadLetters",
                        "dschedHousekeeping",
                        "dschedEngine"));
    }

    @Test
    void isOffWhenDisabled() {
        this.withH2.withPropertyValues("dsched.enabled=false").run((context) -> {
            assertThat(context).hasNotFailed();
            assertThat(context).doesNotHaveBean(DschedEngine.class);
            assertThat(context).doesNotHaveBean(JobGuard.class);
        });
    }

    @Test
    void refusesANegativeWaitOfWritesForStarts() {
        this.withH2
                .withPropertyValues("dsched.cluster.writes-wait-for-starts=-1s")
                .run((context) -> assertThat(context.getStartupFailure())
                        .rootCause()
                        .hasMessageContaining("dsched.cluster.writes-wait-for-starts must be 0 or more"));
    }

    @Test
    void failsClearlyWithoutADataSource() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(DschedAutoConfiguration.class))
                .run((context) -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure())
                            .rootCause()
                            .hasMessageContaining("dsched needs a DataSource")
                            .hasMessageContaining("dsched.enabled=false");
                });
    }

    @Test
    void usesTheDschedDataSourceOverThePrimaryOne() {
        this.contextRunner.withUserConfiguration(TwoDataSources.class).run((context) -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(DschedJdbc.class).dataSource()).isSameAs(context.getBean("schedulerDataSource"));
        });
    }

    @Test
    void backsOffWhenTheUserDefinesTheNodeIdAndTheLockProvider() {
        this.withH2.withUserConfiguration(UserBeans.class).run((context) -> {
            assertThat(context.getBean(NodeId.class).value()).isEqualTo("user-node");
            assertThat(context.getBean("dschedLockProvider")).isInstanceOf(RefusingLockProvider.class);
        });
    }

    @Test
    void takesTheNodeIdFromProperties() {
        this.withH2.withPropertyValues("dsched.node-id=billing-7").run((context) -> assertThat(
                        context.getBean(NodeId.class).value())
                .isEqualTo("billing-7"));
    }

    @Test
    void failsClearlyWhenTheApplicationsDschedJdbcNamesAnotherClustersTables() {
        this.withH2
                .withPropertyValues("dsched.cluster.name=billing")
                .withBean(
                        DschedJdbc.class,
                        () -> new DschedJdbc(
                                DataSourceBuilder.create()
                                        .url("jdbc:h2:mem:own;DB_CLOSE_DELAY=-1")
                                        .build(),
                                DatabasePlatform.H2))
                .run((context) -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure())
                            .rootCause()
                            .hasMessageContaining("dsched.cluster.name is 'billing'")
                            .hasMessageContaining("cluster 'dsched'");
                });
    }

    @Test
    void aClusterOfAnotherNameRunsQuartzByItsName() {
        this.withH2.withPropertyValues("dsched.cluster.name=billing").run((context) -> {
            assertThat(context.getBean(DschedJdbc.class).tables().clusterName()).isEqualTo("billing");
            assertThat(context.getBean(DschedEngine.class).scheduler().getSchedulerName())
                    .isEqualTo("billing");
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class TwoDataSources {

        @Bean
        @Primary
        DataSource applicationDataSource() {
            return DataSourceBuilder.create()
                    .url("jdbc:h2:mem:application;DB_CLOSE_DELAY=-1")
                    .build();
        }

        @Bean
        @DschedDataSource
        DataSource schedulerDataSource() {
            return DataSourceBuilder.create()
                    .url("jdbc:h2:mem:scheduler;DB_CLOSE_DELAY=-1")
                    .build();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class UserBeans {

        @Bean
        NodeId userNodeId() {
            return new NodeId("user-node");
        }

        @Bean
        LockProvider dschedLockProvider() {
            return new RefusingLockProvider();
        }
    }

    static class RefusingLockProvider implements LockProvider {

        @Override
        public Optional<SimpleLock> lock(LockConfiguration configuration) {
            return Optional.empty();
        }
    }
}
