package io.dsched.autoconfigure;

import io.dsched.internal.definition.JobRegistry;
import io.dsched.internal.engine.NodeId;
import io.dsched.internal.notify.NotificationListener;
import io.dsched.internal.notify.WebhookNotifier;
import io.dsched.notify.Notifier;
import java.time.Clock;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionMessage;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.StringUtils;

/**
 * Notifies every {@link Notifier} bean of dead letters and failure streaks, and posts them to a
 * signed webhook when {@code dsched.notify.webhook.url} is set.
 */
@AutoConfiguration(after = DschedAutoConfiguration.class)
@ConditionalOnBean(JobRegistry.class)
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

    @Configuration(proxyBeanMethods = false)
    @Conditional(OnWebhookUrl.class)
    static class Webhook {

        @Bean
        @ConditionalOnMissingBean
        WebhookNotifier dschedWebhookNotifier(DschedProperties properties) {
            DschedProperties.Notify.Webhook webhook = properties.getNotify().getWebhook();
            String scheme = webhook.getUrl().getScheme();
            if ((!"http".equalsIgnoreCase(scheme) && !"https".equalsIgnoreCase(scheme))
                    || !StringUtils.hasText(webhook.getUrl().getHost())) {
                throw new IllegalStateException(
                        "dsched.notify.webhook.url must be an http or https URL with a host, but is "
                                + webhook.getUrl());
            }
            // fail closed: an unsigned webhook would let anyone who finds the receiver forge alerts
            if (!StringUtils.hasText(webhook.getSecret())) {
                throw new IllegalStateException("dsched.notify.webhook.url is set but dsched.notify.webhook.secret "
                        + "is not: set dsched.notify.webhook.secret to a secret shared with the receiver, which "
                        + "checks the X-Dsched-Signature header of each request with it");
            }
            if (webhook.getMaxAttempts() < 1) {
                throw new IllegalStateException(
                        "dsched.notify.webhook.max-attempts must be at least 1, but is " + webhook.getMaxAttempts());
            }
            return new WebhookNotifier(
                    webhook.getUrl(),
                    webhook.getSecret(),
                    webhook.getEvents(),
                    webhook.getTimeout(),
                    webhook.getMaxAttempts(),
                    webhook.getInitialBackoff());
        }
    }

    /** A webhook URL is set, and not to an empty value such as an unset {@code ${WEBHOOK_URL:}}. */
    static class OnWebhookUrl extends SpringBootCondition {

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            ConditionMessage.Builder message = ConditionMessage.forCondition("dsched webhook");
            return StringUtils.hasText(context.getEnvironment().getProperty("dsched.notify.webhook.url"))
                    ? ConditionOutcome.match(message.found("property").items("dsched.notify.webhook.url"))
                    : ConditionOutcome.noMatch(message.didNotFind("property").items("dsched.notify.webhook.url"));
        }
    }
}
