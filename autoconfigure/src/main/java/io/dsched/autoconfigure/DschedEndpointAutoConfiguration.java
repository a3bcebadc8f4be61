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
import io.dsched.internal.deadletter.DeadLetters;
import io.dsched.internal.engine.NodeId;
import io.dsched.internal.management.ClusterViews;
import io.dsched.internal.management.DeadLetterCommands;
import io.dsched.internal.management.ExecutionViews;
import io.dsched.internal.management.JobCommands;
import io.dsched.internal.management.JobViews;
import io.dsched.internal.management.LimitCommands;
import io.dsched.jobs.JobScheduler;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import java.time.Clock;
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
import org.springframework.context.annotation.Import;
import org.springframework.util.ClassUtils;

/**
 * The {@code dsched} Actuator endpoint, when Actuator is on the class path and the endpoint is
 * available ({@code management.endpoints.web.exposure.include} lists {@code dsched}). Its write
 * operations are offered only with Spring Security, or when
 * {@code dsched.management.unsecured-writes} turns them on. The values it shows are sanitized by
 * the application's {@link ValueSanitizer} beans, in their order, or by a {@link SecretKeySanitizer}
 * when it has none. What the endpoint reads and does is configured apart, in the views and
 * commands it imports.
 */
@AutoConfiguration(after = DschedAutoConfiguration.class)
@ConditionalOnClass(Endpoint.class)
@ConditionalOnBean(JobScheduler.class)
@ConditionalOnAvailableEndpoint(endpoint = DschedEndpoint.class)
@Import(DschedManagementConfiguration.class)
public final class DschedEndpointAutoConfiguration {

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
            LimitCommands limits,
            RefusedWrites refusedWrites,
            EndpointRoles roles,
            DschedProperties properties,
            ObjectProvider<ValueSanitizer> sanitizers,
            NodeId nodeId) {
        ValueMasking values = new ValueMasking(
                Show.valueOf(properties.getManagement().getShowValues().name()),
                sanitizers.orderedStream().toList());
        EndpointGuard guard = new EndpointGuard(roles, refusedWrites, values, audit, nodeId.value());
        return new DschedEndpoint(
                cluster, jobs, executions, commands, deadLetterCommands, deadLetters, audit, limits, guard);
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
