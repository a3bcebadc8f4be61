package io.dsched.autoconfigure;

import io.dsched.internal.cluster.ClockSkew;
import io.dsched.internal.cluster.GroupLiveness;
import io.dsched.internal.cluster.NodeTable;
import io.dsched.internal.deadletter.DeadLetters;
import io.dsched.internal.engine.DschedEngine;
import io.dsched.internal.engine.NodeId;
import io.dsched.internal.execution.AttemptRunner;
import io.dsched.internal.health.DschedHealthIndicator;
import io.dsched.internal.queue.NoticeHearer;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.util.function.SingletonSupplier;

/**
 * The {@code dsched} health indicator, when Spring Boot's health support is on the class path. Add
 * it to the readiness group ({@code management.endpoint.health.group.readiness.include=
 * readinessState,dsched}) so that a node that lost the cluster gets no traffic.
 */
@AutoConfiguration(after = DschedAutoConfiguration.class)
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnBean(DschedEngine.class)
@ConditionalOnProperty(prefix = "management.health.dsched", name = "enabled", matchIfMissing = true)
public final class DschedHealthAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean(name = "dschedHealthIndicator")
    DschedHealthIndicator dschedHealthIndicator(
            DschedJdbc jdbc,
            NodeId nodeId,
            DschedEngine engine,
            AttemptRunner runner,
            DeadLetters deadLetters,
            DschedProperties properties,
            ClockSkew skew,
            GroupLiveness groups,
            ObjectProvider<NoticeHearer> hearers) {
        return new DschedHealthIndicator(
                nodeId.value(),
                engine::isRunning,
                new NodeTable(jdbc.dataSource(), jdbc.platform(), jdbc.tables()),
                properties.getRecovery().getNodeTimeout(),
                () -> runner.inFlight().size(),
                deadLetters::openCount,
                skew,
                NoticeHearer.named(
                        SingletonSupplier.of(() -> hearers.orderedStream().toList())),
                groups::groups);
    }
}
