package io.dsched.autoconfigure;

import io.dsched.internal.cluster.DatabaseClock;
import io.dsched.internal.definition.JobRegistry;
import io.dsched.internal.history.Housekeeping;
import io.dsched.internal.history.Retention;
import net.javacrumbs.shedlock.core.LockProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The cluster-wide job that deletes history past its retention, declared like any other job. */
@Configuration(proxyBeanMethods = false)
final class DschedHousekeepingConfiguration {

    @Bean
    @ConditionalOnMissingBean
    Housekeeping dschedHousekeeping(
            DschedJdbc jdbc,
            DschedProperties properties,
            JobRegistry registry,
            DatabaseClock clock,
            @Qualifier("dschedLockProvider") LockProvider lockProvider) {
        DschedProperties.History history = properties.getHistory();
        Retention retention = new Retention(
                history.getRetention(),
                history.getWaitingRetention(),
                properties.getManagement().getAuditRetention(),
                properties.getJobs().getDeploymentRetention(),
                history.getOpenDeadLetterRetention(),
                // an application's own provider may keep its locks in the table, and not create a row again
                (lockProvider instanceof TableLockProvider) ? history.getRetention() : null);
        Housekeeping housekeeping = new Housekeeping(
                jdbc.dataSource(),
                jdbc.platform(),
                jdbc.tables(),
                retention,
                history.getBatchSize(),
                history.getBatchPause(),
                clock);
        registry.register(housekeeping.job(history.getCleanupCron()));
        return housekeeping;
    }
}
