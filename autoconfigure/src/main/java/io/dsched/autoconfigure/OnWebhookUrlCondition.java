package io.dsched.autoconfigure;

import org.springframework.boot.autoconfigure.condition.ConditionMessage;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.StringUtils;

/** A webhook URL is set, and not to an empty value such as an unset {@code ${WEBHOOK_URL:}}. */
class OnWebhookUrlCondition extends SpringBootCondition {

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        ConditionMessage.Builder message = ConditionMessage.forCondition("dsched webhook");
        return StringUtils.hasText(context.getEnvironment().getProperty("dsched.notify.webhook.url"))
                ? ConditionOutcome.match(message.found("property").items("dsched.notify.webhook.url"))
                : ConditionOutcome.noMatch(message.didNotFind("property").items("dsched.notify.webhook.url"));
    }
}
