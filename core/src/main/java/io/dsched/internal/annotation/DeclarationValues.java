package io.dsched.internal.annotation;

import io.dsched.definition.InvalidJobDefinitionException;
import io.dsched.internal.execution.NodeGroups;
import io.dsched.internal.retry.RetryDefaults;
import io.dsched.internal.retry.RetryPolicy;
import io.dsched.retry.Retry;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import org.springframework.format.annotation.DurationFormat;
import org.springframework.format.datetime.standard.DurationFormatterUtils;
import org.springframework.util.StringUtils;
import org.springframework.util.StringValueResolver;

/**
 * Reads the attribute values of dsched's annotations: placeholders, durations and retry
 * settings, failing with a message that names the declaration.
 */
final class DeclarationValues {

    private final StringValueResolver resolver;

    private final Supplier<RetryDefaults> retryDefaults;

    DeclarationValues(StringValueResolver resolver, Supplier<RetryDefaults> retryDefaults) {
        this.resolver = resolver;
        this.retryDefaults = retryDefaults;
    }

    RetryPolicy retryPolicy(Retry retry, String source) {
        RetryDefaults defaults = this.retryDefaults.get();
        if (retry.maxRetries() >= 0 && retry.maxAttempts() >= 0) {
            throw new InvalidJobDefinitionException(source, "@Retry takes maxRetries or maxAttempts, not both");
        }
        if (retry.maxRetries() < -1 || retry.maxAttempts() == 0 || retry.maxAttempts() < -1) {
            throw new InvalidJobDefinitionException(
                    source, "@Retry needs maxRetries of 0 or more, or maxAttempts of 1 or more");
        }
        int maxAttempts;
        if (retry.maxAttempts() > 0) {
            maxAttempts = retry.maxAttempts();
        } else if (retry.maxRetries() >= 0) {
            maxAttempts = retry.maxRetries() + 1;
        } else {
            maxAttempts = defaults.maxRetries() + 1;
        }
        if (retry.multiplier() != 0 && retry.multiplier() < 1) {
            throw new InvalidJobDefinitionException(
                    source, "@Retry multiplier must be 1 or more, was " + retry.multiplier());
        }
        Duration delay = orDefault(duration(retry.delay(), "@Retry delay", source), defaults.delay());
        Duration maxDelay = orDefault(duration(retry.maxDelay(), "@Retry maxDelay", source), defaults.maxDelay());
        Duration jitter = orDefault(duration(retry.jitter(), "@Retry jitter", source), defaults.jitter());
        double multiplier = (retry.multiplier() != 0) ? retry.multiplier() : defaults.multiplier();
        return new RetryPolicy(
                maxAttempts, delay, multiplier, maxDelay, jitter, List.of(retry.includes()), List.of(retry.excludes()));
    }

    static Duration orDefault(Duration value, Duration fallback) {
        return (value != null) ? value : fallback;
    }

    Duration duration(String text, String attribute, String source) {
        String value = resolve(text);
        if (!StringUtils.hasText(value)) {
            return null;
        }
        try {
            Duration duration = DurationFormatterUtils.detectAndParse(value.trim(), DurationFormat.Unit.MILLIS);
            if (duration.isNegative()) {
                throw new InvalidJobDefinitionException(source, attribute + " '" + value + "' is negative");
            }
            return duration;
        } catch (IllegalArgumentException ex) {
            throw new InvalidJobDefinitionException(
                    source,
                    attribute + " '" + value + "' is not a duration; use for example \"10s\", \"500ms\" or \"PT1M\"");
        }
    }

    static Duration positive(Duration duration, String attribute, String source) {
        if (duration.isZero()) {
            throw new InvalidJobDefinitionException(source, attribute + " must be longer than zero");
        }
        return duration;
    }

    /** The group a declaration names, or the default group. */
    String group(String text, String source) {
        String group = resolve(text);
        if (!StringUtils.hasText(group)) {
            return NodeGroups.DEFAULT;
        }
        return NodeGroups.validated(group)
                .orElseThrow(() -> new InvalidJobDefinitionException(
                        source, "group '" + group + "' is not a valid group name: " + NodeGroups.rule()));
    }

    String resolve(String value) {
        if (!StringUtils.hasText(value)) {
            return value;
        }
        String resolved = this.resolver.resolveStringValue(value);
        return (resolved != null) ? resolved.trim() : null;
    }

    /**
     * Calls an annotated bean method and rethrows what the method itself threw.
     * @param bean the bean
     * @param method the method, made accessible
     * @param arguments its arguments
     * @throws Exception whatever the method throws
     */
    static void invoke(Object bean, Method method, Object... arguments) throws Exception {
        try {
            method.invoke(bean, arguments);
        } catch (InvocationTargetException ex) {
            Throwable cause = ex.getTargetException();
            if (cause instanceof Exception exception) {
                throw exception;
            }
            throw (Error) cause;
        }
    }
}
