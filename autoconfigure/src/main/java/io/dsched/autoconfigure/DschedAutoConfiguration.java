package io.dsched.autoconfigure;

import io.dsched.annotation.DistributedScheduled;
import io.dsched.execution.ExecutionListener;
import io.dsched.internal.annotation.DistributedScheduledBeanPostProcessor;
import io.dsched.internal.annotation.JobHandlerBeanPostProcessor;
import io.dsched.internal.audit.AuditLog;
import io.dsched.internal.cluster.ClockSkew;
import io.dsched.internal.cluster.ClusterMembership;
import io.dsched.internal.cluster.DatabaseClock;
import io.dsched.internal.cluster.MembershipStanding;
import io.dsched.internal.cluster.NodeTable;
import io.dsched.internal.deadletter.DeadLetters;
import io.dsched.internal.definition.JobRegistry;
import io.dsched.internal.engine.DeploymentLock;
import io.dsched.internal.engine.DschedEngine;
import io.dsched.internal.engine.FireDispatcher;
import io.dsched.internal.engine.GracefulShutdown;
import io.dsched.internal.engine.JobRemovals;
import io.dsched.internal.engine.JobSynchronizer;
import io.dsched.internal.engine.NodeId;
import io.dsched.internal.engine.QuartzSettings;
import io.dsched.internal.execution.AttemptObserver;
import io.dsched.internal.execution.AttemptRunner;
import io.dsched.internal.execution.CompositeJobTargets;
import io.dsched.internal.execution.ExecutionListeners;
import io.dsched.internal.execution.FireExecutor;
import io.dsched.internal.execution.JobGuard;
import io.dsched.internal.execution.JobTargets;
import io.dsched.internal.execution.StopRequests;
import io.dsched.internal.handler.HandlerRegistry;
import io.dsched.internal.history.Housekeeping;
import io.dsched.internal.jobs.DefaultJobScheduler;
import io.dsched.internal.jobs.RuntimeJobs;
import io.dsched.internal.jobs.SubmissionObserver;
import io.dsched.internal.queue.ExecutionQueue;
import io.dsched.internal.retry.RetryDefaults;
import io.dsched.internal.store.ClusterTables;
import io.dsched.internal.store.DatabasePlatform;
import io.dsched.internal.store.DeadLetterRepository;
import io.dsched.internal.store.DeploymentStore;
import io.dsched.internal.store.DschedRepositories;
import io.dsched.internal.store.ExecutionRepository;
import io.dsched.internal.store.ExecutionStore;
import io.dsched.internal.store.JobDefinitionStore;
import io.dsched.internal.store.LockTable;
import io.dsched.internal.store.UniqueKeys;
import io.dsched.jobs.JobScheduler;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import javax.sql.DataSource;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.provider.jdbctemplate.JdbcTemplateLockProvider;
import org.quartz.SchedulerException;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.LazyInitializationExcludeFilter;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.info.BuildProperties;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Primary;
import org.springframework.context.annotation.Role;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.env.Environment;
import org.springframework.util.StringUtils;
import org.springframework.util.function.SingletonSupplier;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Auto-configuration of dsched: runs {@code @DistributedScheduled} methods once per fire across
 * every node that shares the database.
 */
@AutoConfiguration(after = DataSourceAutoConfiguration.class)
@ConditionalOnProperty(prefix = "dsched", name = "enabled", havingValue = "true", matchIfMissing = true)
@EnableConfigurationProperties(DschedProperties.class)
public final class DschedAutoConfiguration {

    private static final Clock CLOCK = Clock.systemUTC();

    @Bean
    @ConditionalOnMissingBean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static JobRegistry dschedJobRegistry() {
        return new JobRegistry();
    }

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static DistributedScheduledBeanPostProcessor distributedScheduledBeanPostProcessor(
            JobRegistry registry, Environment environment) {
        return new DistributedScheduledBeanPostProcessor(registry, () -> retryDefaults(environment));
    }

    private static RetryDefaults retryDefaults(Environment environment) {
        DschedProperties.Retry retry = Binder.get(environment)
                .bind("dsched.retry", DschedProperties.Retry.class)
                .orElseGet(DschedProperties.Retry::new);
        return new RetryDefaults(
                retry.getMaxRetries(), retry.getDelay(), retry.getMultiplier(), retry.getMaxDelay(), retry.getJitter());
    }

    @Bean
    @ConditionalOnMissingBean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static HandlerRegistry dschedHandlerRegistry() {
        return new HandlerRegistry();
    }

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static JobHandlerBeanPostProcessor jobHandlerBeanPostProcessor(
            HandlerRegistry registry, Environment environment, ObjectProvider<JsonMapper> jsonMappers) {
        return new JobHandlerBeanPostProcessor(registry, () -> retryDefaults(environment), jsonMapper(jsonMappers));
    }

    // the application's mapper, for its modules, but writing compact JSON into the payload columns
    private static Supplier<JsonMapper> jsonMapper(ObjectProvider<JsonMapper> jsonMappers) {
        return SingletonSupplier.of(() -> jsonMappers
                .getIfAvailable(() -> JsonMapper.builder().build())
                .rebuild()
                .disable(SerializationFeature.INDENT_OUTPUT)
                .build());
    }

    @Bean
    @ConditionalOnMissingBean
    NodeId dschedNodeId(DschedProperties properties) {
        return NodeId.of(properties.getNodeId());
    }

    @Bean
    @ConditionalOnMissingBean
    DschedJdbc dschedJdbc(
            DschedProperties properties,
            @DschedDataSource ObjectProvider<DataSource> dschedDataSource,
            ObjectProvider<DataSource> dataSource) {
        DataSource chosen = dschedDataSource.getIfAvailable(dataSource::getIfUnique);
        if (chosen == null) {
            throw new IllegalStateException("dsched needs a DataSource to keep its jobs in, but the application has "
                    + "none (or several and none marked @DschedDataSource). Add spring-boot-starter-jdbc and a "
                    + "database driver with spring.datasource.url, mark one DataSource @DschedDataSource, or turn "
                    + "dsched off with dsched.enabled=false");
        }
        String platform = properties.getJdbc().getPlatform();
        return new DschedJdbc(
                chosen,
                StringUtils.hasText(platform) ? DatabasePlatform.of(platform) : DatabasePlatform.detect(chosen),
                ClusterTables.of(properties.getCluster().getName()));
    }

    @Bean
    @ConditionalOnMissingBean
    DschedSchemaInitializer dschedSchemaInitializer(DschedJdbc jdbc, DschedProperties properties) {
        return new DschedSchemaInitializer(jdbc, properties.getJdbc().getInitializeSchema());
    }

    // not a default candidate: an application's own ShedLock setup keeps finding its own provider
    @Bean(defaultCandidate = false)
    @ConditionalOnMissingBean(name = "dschedLockProvider")
    LockProvider dschedLockProvider(DschedJdbc jdbc, NodeId nodeId) {
        return new TableLockProvider(
                LockTable.configuration(jdbc.dataSource(), jdbc.platform(), jdbc.tables(), nodeId.value()));
    }

    /** dsched's own provider, on its lock table: the guard then writes that table itself. */
    static final class TableLockProvider extends JdbcTemplateLockProvider {

        TableLockProvider(JdbcTemplateLockProvider.Configuration configuration) {
            super(configuration);
        }
    }

    @Bean
    static LazyInitializationExcludeFilter dschedLazyInitializationExcludeFilter() {
        return (beanName, definition, beanType) -> hasDistributedScheduledMethods(beanType);
    }

    private static boolean hasDistributedScheduledMethods(Class<?> type) {
        return !MethodIntrospector.selectMethods(type, (MethodIntrospector.MetadataLookup<DistributedScheduled>)
                        (method) -> AnnotatedElementUtils.findMergedAnnotation(method, DistributedScheduled.class))
                .isEmpty();
    }

    @Bean
    @ConditionalOnMissingBean
    DschedRepositories dschedRepositories(DschedJdbc jdbc) {
        return new DschedRepositories(jdbc.dataSource(), jdbc.platform(), jdbc.tables());
    }

    @Bean
    @ConditionalOnMissingBean
    ExecutionRepository dschedExecutionRepository(DschedRepositories repositories) {
        return repositories.executions();
    }

    @Bean
    @ConditionalOnMissingBean
    DeadLetterRepository dschedDeadLetterRepository(DschedRepositories repositories) {
        return repositories.deadLetters();
    }

    @Bean
    @ConditionalOnMissingBean
    ExecutionStore dschedExecutionStore(
            ExecutionRepository executions,
            DeadLetterRepository deadLetters,
            DschedJdbc jdbc,
            DschedProperties properties) {
        return new ExecutionStore(
                executions,
                deadLetters,
                jdbc.transactions(),
                jdbc.dataSource(),
                jdbc.platform(),
                jdbc.tables(),
                properties.getQueue().isSkipLocked());
    }

    @Bean
    @ConditionalOnMissingBean
    JobDefinitionStore dschedJobDefinitionStore(DschedJdbc jdbc) {
        return new JobDefinitionStore(jdbc.dataSource(), jdbc.platform(), jdbc.tables());
    }

    @Bean
    @ConditionalOnMissingBean
    DeploymentStore dschedDeploymentStore(DschedJdbc jdbc) {
        return new DeploymentStore(jdbc.dataSource(), jdbc.platform(), jdbc.tables());
    }

    @Bean
    @ConditionalOnMissingBean
    DeploymentLock dschedDeploymentLock(DschedJdbc jdbc, NodeId nodeId) {
        // always a row of dsched's own lock table, whatever provider guards the jobs
        return new DeploymentLock(
                new TableLockProvider(
                        LockTable.configuration(jdbc.dataSource(), jdbc.platform(), jdbc.tables(), nodeId.value())),
                CLOCK);
    }

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnProperty(prefix = "dsched.jobs", name = "remove-undeclared", matchIfMissing = true)
    JobRemovals dschedJobRemovals(
            DschedEngine engine,
            DeploymentStore deployments,
            DeploymentLock lock,
            DschedRepositories repositories,
            NodeId nodeId,
            DschedProperties properties,
            DatabaseClock clock) {
        Duration grace = properties.getJobs().getRemovalGrace();
        return new JobRemovals(
                engine::scheduler,
                deployments,
                repositories.executions(),
                new AuditLog(repositories.aggregates()),
                lock,
                (grace != null) ? grace : properties.getRecovery().getNodeTimeout(),
                properties.getRecovery().getNodeTimeout(),
                nodeId.value(),
                clock);
    }

    @Bean
    @ConditionalOnMissingBean
    JobGuard dschedJobGuard(
            @Qualifier("dschedLockProvider") LockProvider lockProvider,
            DschedJdbc jdbc,
            NodeId nodeId,
            DschedProperties properties) {
        return new JobGuard(
                lockProvider,
                (lockProvider instanceof TableLockProvider)
                        ? new LockTable(jdbc.dataSource(), jdbc.platform(), jdbc.tables(), nodeId.value())
                        : null,
                properties.getLock().getAtMostFor(),
                properties.getLock().getAtLeastFor(),
                CLOCK,
                jdbc.tables().clusterName());
    }

    // the registries are targets too: this one, which combines them, is the one to inject
    @Bean
    @Primary
    @ConditionalOnMissingBean(name = "dschedJobTargets")
    JobTargets dschedJobTargets(JobRegistry registry, HandlerRegistry handlers, RuntimeJobs runtimeJobs) {
        return new CompositeJobTargets(List.of(registry, handlers, runtimeJobs));
    }

    @Bean
    @ConditionalOnMissingBean
    RuntimeJobs dschedRuntimeJobs(
            DschedRepositories repositories, DschedJdbc jdbc, HandlerRegistry handlers, DatabaseClock clock) {
        return new RuntimeJobs(
                repositories.aggregates(),
                jdbc.dataSource(),
                jdbc.tables(),
                repositories.executions(),
                jdbc.transactions(),
                handlers,
                clock);
    }

    @Bean
    @ConditionalOnMissingBean
    JobScheduler dschedJobScheduler(
            HandlerRegistry handlers,
            JobRegistry jobs,
            ExecutionStore store,
            DschedEngine engine,
            ObjectProvider<JsonMapper> jsonMappers,
            NodeId nodeId,
            ExecutionQueue queue,
            RuntimeJobs runtimeJobs,
            ObjectProvider<SubmissionObserver> observer,
            DschedJdbc jdbc,
            DatabaseClock clock) {
        return new DefaultJobScheduler(
                handlers,
                jobs,
                store,
                engine::scheduler,
                jsonMapper(jsonMappers),
                nodeId.value(),
                clock,
                queue::wakeUp,
                runtimeJobs,
                observer.getIfAvailable(() -> SubmissionObserver.NONE),
                new UniqueKeys(jdbc.dataSource(), jdbc.platform(), jdbc.tables(), jdbc.transactions()));
    }

    @Bean
    @ConditionalOnMissingBean
    StopRequests dschedStopRequests(ExecutionStore store, DschedProperties properties) {
        DschedProperties.Execution execution = properties.getExecution();
        return new StopRequests(
                store.cancels()::requested, execution.getCancelPollInterval(), execution.getCancelGrace());
    }

    @Bean
    @ConditionalOnMissingBean
    AttemptRunner dschedAttemptRunner(
            JobTargets targets,
            ExecutionStore store,
            JobGuard guard,
            NodeId nodeId,
            ObjectProvider<ExecutionListener> listeners,
            ObjectProvider<AttemptObserver> observer,
            StopRequests stops,
            DatabaseClock clock) {
        return new AttemptRunner(
                targets,
                store,
                guard,
                nodeId.value(),
                clock,
                new SecureRandom(),
                listeners(listeners),
                observer.getIfAvailable(() -> AttemptObserver.NONE),
                stops);
    }

    @Bean
    @ConditionalOnMissingBean
    FireExecutor dschedFireExecutor(
            ExecutionStore store,
            AttemptRunner runner,
            JobGuard guard,
            JobTargets targets,
            ExecutionQueue queue,
            ObjectProvider<ExecutionListener> listeners,
            DatabaseClock clock) {
        return new FireExecutor(store, runner, guard, targets, queue::wakeUp, clock, listeners(listeners));
    }

    private static ExecutionListener listeners(ObjectProvider<ExecutionListener> listeners) {
        return new ExecutionListeners(listeners.orderedStream().toList());
    }

    @Bean
    @ConditionalOnMissingBean
    GracefulShutdown dschedGracefulShutdown(DschedProperties properties) {
        DschedProperties.Shutdown shutdown = properties.getShutdown();
        return new GracefulShutdown(shutdown.isWaitForJobs() ? shutdown.getTimeout() : Duration.ZERO, CLOCK);
    }

    @Bean
    @ConditionalOnMissingBean
    ExecutionQueue dschedExecutionQueue(
            ExecutionStore store,
            AttemptRunner runner,
            JobTargets targets,
            DschedProperties properties,
            DschedSchemaInitializer schemaInitializer,
            GracefulShutdown shutdown,
            DatabaseClock clock) {
        return new ExecutionQueue(
                store,
                runner,
                targets,
                clock,
                properties.getQueue().getPollInterval(),
                properties.getThreads(),
                shutdown,
                properties.isRunJobs());
    }

    @Bean
    @ConditionalOnMissingBean
    DatabaseClock dschedDatabaseClock() {
        return new DatabaseClock(CLOCK);
    }

    @Bean
    @ConditionalOnMissingBean
    ClockSkew dschedClockSkew(DatabaseClock clock, DschedProperties properties, NodeId nodeId) {
        return new ClockSkew(clock, properties.getCluster().getMaxClockSkew(), nodeId.value());
    }

    @Bean
    @ConditionalOnMissingBean
    ClusterMembership dschedClusterMembership(
            DschedJdbc jdbc,
            ExecutionStore store,
            JobTargets targets,
            ExecutionQueue queue,
            AttemptRunner runner,
            NodeId nodeId,
            DschedProperties properties,
            DschedSchemaInitializer schemaInitializer,
            DatabaseClock clock,
            ClockSkew skew) {
        DschedProperties.Recovery recovery = properties.getRecovery();
        return new ClusterMembership(
                new NodeTable(jdbc.dataSource(), jdbc.platform(), jdbc.tables()),
                store,
                targets,
                queue,
                runner::inFlight,
                nodeId.value(),
                recovery.getHeartbeatInterval(),
                recovery.getNodeTimeout(),
                clock,
                skew);
    }

    @Bean
    @ConditionalOnMissingBean
    DeadLetters dschedDeadLetters(
            DschedRepositories repositories,
            DeadLetterRepository deadLetters,
            ExecutionRepository executions,
            DschedJdbc jdbc,
            NodeId nodeId,
            ExecutionQueue queue,
            DatabaseClock clock) {
        return new DeadLetters(
                repositories.aggregates(),
                deadLetters,
                executions,
                jdbc.transactions(),
                nodeId.value(),
                clock,
                queue::wakeUp);
    }

    @Bean
    @ConditionalOnMissingBean
    Housekeeping dschedHousekeeping(
            DschedJdbc jdbc,
            DschedProperties properties,
            JobRegistry registry,
            DatabaseClock clock,
            @Qualifier("dschedLockProvider") LockProvider lockProvider) {
        DschedProperties.History history = properties.getHistory();
        Housekeeping.Retention retention = new Housekeeping.Retention(
                history.getRetention(),
                history.getWaitingRetention(),
                properties.getManagement().getAuditRetention(),
                properties.getJobs().getDeploymentRetention(),
                history.getOpenDeadLetterRetention(),
                // an application's own provider may keep its locks in the table, and not create a row again
                (lockProvider instanceof TableLockProvider) ? history.getRetention() : null);
        Housekeeping housekeeping = new Housekeeping(
                jdbc.dataSource(), jdbc.platform(), jdbc.tables(), retention, history.getBatchSize(), clock);
        registry.register(housekeeping.job(history.getCleanupCron()));
        return housekeeping;
    }

    @Bean
    @ConditionalOnMissingBean
    DschedEngine dschedEngine(
            DschedProperties properties,
            DschedJdbc jdbc,
            DschedSchemaInitializer schemaInitializer,
            NodeId nodeId,
            JobRegistry registry,
            FireExecutor executor,
            JobDefinitionStore definitions,
            DeploymentStore deployments,
            DeploymentLock deploymentLock,
            ObjectProvider<BuildProperties> build,
            Housekeeping housekeeping,
            RuntimeJobs runtimeJobs,
            GracefulShutdown shutdown,
            ClusterMembership membership,
            ClockSkew skew,
            DatabaseClock clock)
            throws SchedulerException {
        DschedProperties.Cluster cluster = properties.getCluster();
        if (!jdbc.tables().clusterName().equals(cluster.getName())) {
            throw new IllegalStateException("dsched.cluster.name is '" + cluster.getName()
                    + "' but the DschedJdbc bean "
                    + "names the tables of cluster '" + jdbc.tables().clusterName() + "': give it ClusterTables.of(\""
                    + cluster.getName() + "\")");
        }
        return new DschedEngine(
                QuartzSettings.forNode(
                        jdbc.dataSource(),
                        jdbc.platform(),
                        // the name the tables were named by, also with a DschedJdbc of the application's
                        jdbc.tables().clusterName(),
                        nodeId.value(),
                        properties.getThreads(),
                        cluster.getCheckinInterval(),
                        cluster.getIdleWait(),
                        cluster.getMisfireThreshold(),
                        cluster.isSkipLocked()),
                new FireDispatcher(executor, registry, clock),
                (scheduler) -> new JobSynchronizer(
                        scheduler,
                        registry,
                        definitions,
                        new JobSynchronizer.Deployments(deployments, deploymentLock, build(build)),
                        nodeId.value(),
                        properties.getJobs().isReapplySuperseded(),
                        clock,
                        runtimeJobs::synchronize),
                shutdown,
                properties.isRunJobs(),
                new MembershipStanding(
                        membership,
                        skew,
                        new NodeTable(jdbc.dataSource(), jdbc.platform(), jdbc.tables()),
                        properties.getRecovery().getNodeTimeout(),
                        nodeId.value()));
    }

    private static String build(ObjectProvider<BuildProperties> build) {
        BuildProperties properties = build.getIfAvailable();
        if (properties == null) {
            return null;
        }
        return properties.getGroup() + ":" + properties.getArtifact() + ":" + properties.getVersion() + "@"
                + properties.getTime();
    }
}
