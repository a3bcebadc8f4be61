package io.dsched.autoconfigure;

import io.dsched.internal.definition.JobRegistry;
import io.dsched.internal.engine.NodeId;
import io.dsched.internal.notify.NotificationListener;
import io.dsched.notify.Notifier;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;

/**
 * Notifies every {@link Notifier} bean of dead letters and failure streaks, and posts them to a
 * signed webhook when {@code dsched.notify.webhook.url} is set.
 */
@AutoConfiguration(after = DschedAutoConfiguration.class)
@ConditionalOnBean(JobRegistry.class)
@Import(DschedWebhookConfiguration.class)
public final class DschedNotifyAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    NotificationListener dschedNotificationListener(
            ObjectProvider<Notifier> notifiers, DschedProperties properties, NodeId nodeId) {
        int failureStreak = properties.getNotify().getFailureStreak();
        if (failureStreak < 1) {
            throw new IllegalStateException("dsched.notify.failure-streak must be at least 1, but is " + failureStreak);
        }
        // looked up when first needed: a notifier of the application may depend on dsched's beans
        return new NotificationListener(
                () -> notifiers.orderedStream().toList(), failureStreak, nodeId.value(), Clock.systemUTC());
    }
}
