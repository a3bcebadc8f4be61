package io.dsched.autoconfigure;

import io.dsched.internal.notify.WebhookNotifier;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.util.StringUtils;

/** Posts dead letters and failure streaks to a signed webhook, checking its settings at start-up. */
@Configuration(proxyBeanMethods = false)
@Conditional(OnWebhookUrlCondition.class)
class DschedWebhookConfiguration {

    @Bean
    @ConditionalOnMissingBean
    WebhookNotifier dschedWebhookNotifier(DschedProperties properties) {
        DschedProperties.Notify.Webhook webhook = properties.getNotify().getWebhook();
        String scheme = webhook.getUrl().getScheme();
        if ((!"http".equalsIgnoreCase(scheme) && !"https".equalsIgnoreCase(scheme))
                || !StringUtils.hasText(webhook.getUrl().getHost())) {
            throw new IllegalStateException(
                    "dsched.notify.webhook.url must be an http or https URL with a host, but is " + webhook.getUrl());
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
