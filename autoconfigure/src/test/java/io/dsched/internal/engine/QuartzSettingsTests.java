package io.dsched.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.dsched.internal.store.DatabasePlatform;
import io.dsched.quartz.ClusterJobStore;
import io.dsched.quartz.SkipLockedDelegates;
import io.dsched.quartz.SkipLockedJobStore;
import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.quartz.impl.jdbcjobstore.PostgreSQLDelegate;
import org.quartz.impl.jdbcjobstore.StdJDBCDelegate;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

class QuartzSettingsTests {

    @Test
    void postgresqlAndMysqlAcquireTriggersWithSkipLocked() {
        assertThat(store(DatabasePlatform.POSTGRESQL, true))
                .containsEntry("org.quartz.jobStore.class", SkipLockedJobStore.class.getName())
                .containsEntry(
                        "org.quartz.jobStore.driverDelegateClass", SkipLockedDelegates.PostgreSQL.class.getName());
        assertThat(store(DatabasePlatform.MYSQL, true))
                .containsEntry("org.quartz.jobStore.class", SkipLockedJobStore.class.getName())
                .containsEntry("org.quartz.jobStore.driverDelegateClass", SkipLockedDelegates.Standard.class.getName());
    }

    @Test
    void h2KeepsTheStockStoreAsItHasNoSkipLocked() {
        assertThat(store(DatabasePlatform.H2, true))
                .containsEntry("org.quartz.jobStore.class", ClusterJobStore.class.getName())
                .containsEntry("org.quartz.jobStore.driverDelegateClass", StdJDBCDelegate.class.getName());
    }

    @ParameterizedTest
    @EnumSource(DatabasePlatform.class)
    void turnedOffEveryDatabaseGetsTheStockStoreUnderTheClusterWideLock(DatabasePlatform platform) {
        Properties properties = store(platform, false);
        assertThat(properties)
                .containsEntry("org.quartz.jobStore.class", ClusterJobStore.class.getName())
                .containsEntry("org.quartz.jobStore.acquireTriggersWithinLock", "true");
        assertThat(properties.getProperty("org.quartz.jobStore.driverDelegateClass"))
                .isEqualTo(
                        (platform == DatabasePlatform.POSTGRESQL)
                                ? PostgreSQLDelegate.class.getName()
                                : StdJDBCDelegate.class.getName());
    }

    private static Properties store(DatabasePlatform platform, boolean skipLocked) {
        return QuartzSettings.forNode(
                new DriverManagerDataSource(),
                platform,
                "settings-test",
                "node-" + platform,
                4,
                Duration.ofSeconds(5),
                Duration.ofSeconds(1),
                Duration.ofSeconds(60),
                skipLocked);
    }
}
