package io.dsched.autoconfigure;

import io.dsched.internal.engine.NodeId;
import io.dsched.internal.execution.JobGuard;
import io.dsched.internal.store.LockTable;
import java.time.Clock;
import net.javacrumbs.shedlock.core.LockProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The overlap guard and the ShedLock provider behind it: dsched's lock table unless the
 * application defines a {@code dschedLockProvider} of its own (Redis, for example).
 */
@Configuration(proxyBeanMethods = false)
final class DschedGuardConfiguration {

    // not a default candidate: an application's own ShedLock setup keeps finding its own provider
    @Bean(defaultCandidate = false)
    @ConditionalOnMissingBean(name = "dschedLockProvider")
    LockProvider dschedLockProvider(DschedJdbc jdbc, NodeId nodeId) {
        return TableLockProvider.of(jdbc, nodeId);
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
                Clock.systemUTC(),
                jdbc.tables().clusterName());
    }
}
