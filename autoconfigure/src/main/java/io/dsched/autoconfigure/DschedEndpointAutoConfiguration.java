package io.dsched.autoconfigure;

import io.dsched.actuate.ValueSanitizer;
import io.dsched.internal.actuate.DschedEndpoint;
import io.dsched.internal.actuate.DschedEndpointWebExtension;
import io.dsched.internal.actuate.EndpointGuard;
import io.dsched.internal.actuate.EndpointRoles;
import io.dsched.internal.actuate.SecretKeySanitizer;
import io.dsched.internal.actuate.ValueMasking;
import io.dsched.internal.audit.AuditLog;
import io.dsched.internal.audit.RefusedWrites;
import io.dsched.internal.cluster.ClockSkew;
import io.dsched.internal.cluster.NodeTable;
import io.dsched.internal.deadletter.DeadLetters;
import io.dsched.internal.definition.JobRegistry;
import io.dsched.internal.engine.DschedEngine;
import io.dsched.internal.engine.NodeId;
import io.dsched.internal.jobs.RuntimeJobs;
import io.dsched.internal.logs.ExecutionLogs;
import io.dsched.internal.management.ClusterViews;
import io.dsched.internal.management.DeadLetterCommands;
import io.dsched.internal.management.ExecutionViews;
import io.dsched.internal.management.JobCommands;
import io.dsched.internal.management.JobStatistics;
import io.dsched.internal.management.JobViews;
import io.dsched.internal.management.ManagedJobs;
import io.dsched.internal.management.NodeViews;
import io.dsched.internal.store.DschedRepositories;
import io.dsched.internal.store.ExecutionRepository;
import io.dsched.jobs.JobScheduler;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import java.time.Clock;
import java.util.Optional;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.OperationFilter;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.web.WebOperation;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.util.ClassUtils;

/**
 * The {@code dsched} Actuator endpoint, when Actuator is on the class path and the endpoint is
 * available ({@code management.endpoints.web.exposure.include} lists {@code dsched}). Its write
 * operations are offered only with Spring Security, or when
 * {@code dsched.management.unsecured-writes} turns them on. The values it shows are sanitized by
 * the application's {@link ValueSanitizer} beans, in their order, or by a {@link SecretKeySanitizer}
 * when it has none.
 */
@AutoConfiguration(after = DschedAutoConfiguration.class)
@ConditionalOnClass(Endpoint.class)
@ConditionalOnBean(JobScheduler.class)
@ConditionalOnAvailableEndpoint(endpoint = DschedEndpoint.class)
public final class DschedEndpointAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    AuditLog dschedAuditLog(DschedRepositories repositories) {
        return new AuditLog(repositories.aggregates());
    }

    @Bean
    @ConditionalOnMissingBean
    ManagedJobs dschedManagedJobs(JobRegistry registry, RuntimeJobs runtimeJobs, DschedEngine engine) {
        return new ManagedJobs(registry, runtimeJobs, engine::scheduler);
    }

    @Bean
    @ConditionalOnMissingBean
    ClusterViews dschedClusterViews(
            DschedJdbc jdbc,
            ManagedJobs jobs,
            DschedRepositories repositories,
            DeadLetters deadLetters,
            NodeId nodeId,
            DschedProperties properties,
            ClockSkew skew) {
        return new ClusterViews(
                jobs,
                new NodeViews(
                        new NodeTable(jdbc.dataSource(), jdbc.platform(), jdbc.tables()),
                        properties.getRecovery().getNodeTimeout(),
                        skew,
                        nodeId.value()),
                new JobStatistics(jdbc.dataSource(), jdbc.platform(), jdbc.tables()),
                deadLetters,
                repositories.aggregates(),
                Clock.systemUTC());
    }

    @Bean
    @ConditionalOnMissingBean
    ExecutionViews dschedExecutionViews(
            ManagedJobs jobs,
            ExecutionRepository executions,
            DschedRepositories repositories,
            ObjectProvider<ExecutionLogs> logs) {
        return new ExecutionViews(executions, repositories.aggregates(), jobs, (id) -> {
            ExecutionLogs found = logs.getIfAvailable();
            return (found != null) ? found.find(id) : Optional.empty();
        });
    }

    @Bean
    @ConditionalOnMissingBean
    JobViews dschedJobViews(
            DschedJdbc jdbc,
            ManagedJobs jobs,
            JobScheduler scheduler,
            ExecutionRepository executions,
            ExecutionViews executionViews) {
        return new JobViews(
                jobs,
                scheduler,
                executions,
                new JobStatistics(jdbc.dataSource(), jdbc.platform(), jdbc.tables()),
                executionViews,
                Clock.systemUTC());
    }

    @Bean
    @ConditionalOnMissingBean
    JobCommands dschedJobCommands(ManagedJobs jobs, JobScheduler scheduler) {
        return new JobCommands(jobs, scheduler);
    }

    @Bean
    @ConditionalOnMissingBean
    DeadLetterCommands dschedDeadLetterCommands(DeadLetters deadLetters, DschedJdbc jdbc) {
        return new DeadLetterCommands(deadLetters, jdbc.transactions());
    }

    @Bean
    @ConditionalOnMissingBean
    EndpointRoles dschedEndpointRoles(DschedProperties properties, ApplicationContext context) {
        DschedProperties.Management management = properties.getManagement();
        return new EndpointRoles(
                management.getViewerRole(),
                management.getOperatorRole(),
                management.getAdminRole(),
                ClassUtils.isPresent("org.springframework.security.core.Authentication", context.getClassLoader()),
                management.isUnsecuredWrites());
    }

    @Bean
    @ConditionalOnMissingBean(ValueSanitizer.class)
    SecretKeySanitizer dschedSecretKeySanitizer(DschedProperties properties) {
        return new SecretKeySanitizer(properties.getManagement().getAdditionalKeysToSanitize());
    }

    @Bean
    @ConditionalOnMissingBean
    RefusedWrites dschedRefusedWrites(ObjectProvider<MeterRegistry> registry) {
        // without a registry the refusals are counted where nobody reads them
        return new RefusedWrites(registry.getIfAvailable(CompositeMeterRegistry::new), Clock.systemUTC());
    }

    @Bean
    @ConditionalOnMissingBean
    DschedEndpoint dschedEndpoint(
            ClusterViews cluster,
            JobViews jobs,
            ExecutionViews executions,
            JobCommands commands,
            DeadLetterCommands deadLetterCommands,
            DeadLetters deadLetters,
            AuditLog audit,
            RefusedWrites refusedWrites,
            EndpointRoles roles,
            DschedProperties properties,
            ObjectProvider<ValueSanitizer> sanitizers,
            NodeId nodeId) {
        ValueMasking values = new ValueMasking(
                Show.valueOf(properties.getManagement().getShowValues().name()),
                sanitizers.orderedStream().toList());
        EndpointGuard guard = new EndpointGuard(roles, refusedWrites, values, audit, nodeId.value());
        return new DschedEndpoint(cluster, jobs, executions, commands, deadLetterCommands, deadLetters, audit, guard);
    }

    @Bean
    @ConditionalOnMissingBean
    DschedEndpointWebExtension dschedEndpointWebExtension(DschedEndpoint endpoint, NodeId nodeId) {
        return new DschedEndpointWebExtension(endpoint, nodeId.value());
    }

    @Bean
    OperationFilter<WebOperation> dschedWriteOperationFilter(EndpointRoles roles) {
        return DschedEndpoint.writeFilter(roles);
    }
}
