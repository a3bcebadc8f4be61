package io.dsched.annotation;

import io.dsched.definition.InvalidJobDefinitionException;
import io.dsched.definition.JobDefinition;
import io.dsched.definition.JobInvoker;
import io.dsched.definition.JobRegistry;
import io.dsched.definition.Schedule;
import io.dsched.execution.JobContext;
import io.dsched.retry.Retry;
import io.dsched.retry.RetryDefaults;
import io.dsched.retry.RetryPolicy;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.context.EmbeddedValueResolverAware;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.scheduling.support.CronExpression;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.StringUtils;
import org.springframework.util.StringValueResolver;

/**
 * Finds {@link DistributedScheduled} methods on beans and registers a {@link JobDefinition} for
 * each; an invalid declaration fails the start-up with a message naming the method.
 */
public class DistributedScheduledBeanPostProcessor implements BeanPostProcessor, EmbeddedValueResolverAware {

    private final JobRegistry registry;

    private final Supplier<RetryDefaults> retryDefaults;

    private StringValueResolver resolver = (value) -> value;

    /**
     * Creates a post-processor that registers jobs in the given registry.
     * @param registry where definitions go
     * @param retryDefaults the values of {@code dsched.retry.*}
     */
    public DistributedScheduledBeanPostProcessor(JobRegistry registry, Supplier<RetryDefaults> retryDefaults) {
        this.registry = registry;
        this.retryDefaults = retryDefaults;
    }

    @Override
    public void setEmbeddedValueResolver(StringValueResolver resolver) {
        this.resolver = resolver;
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        Class<?> targetClass = AopUtils.getTargetClass(bean);
        Map<Method, DistributedScheduled> annotated =
                MethodIntrospector.selectMethods(targetClass, (MethodIntrospector.MetadataLookup<DistributedScheduled>)
                        (method) -> AnnotatedElementUtils.findMergedAnnotation(method, DistributedScheduled.class));
        annotated.forEach((method, annotation) -> {
            JobDefinition definition = define(bean, beanName, targetClass, method, annotation);
            if (definition != null) {
                this.registry.register(definition);
            }
        });
        return bean;
    }

    private JobDefinition define(
            Object bean, String beanName, Class<?> targetClass, Method method, DistributedScheduled annotation) {
        String source = ClassUtils.getShortName(targetClass) + "." + method.getName() + "()";
        String cron = resolve(annotation.cron());
        if (DistributedScheduled.CRON_DISABLED.equals(cron)) {
            return null;
        }
        boolean passesContext = checkParameters(method, source);
        String name = resolve(annotation.name());
        if (!StringUtils.hasText(name)) {
            name = beanName + "." + method.getName();
        }
        if (name.length() > 200) {
            throw new InvalidJobDefinitionException(source, "name '" + name + "' is longer than 200 characters");
        }
        Schedule schedule = schedule(annotation, cron, source);
        Duration atMostFor = duration(annotation.lockAtMostFor(), "lockAtMostFor", source);
        Duration atLeastFor = duration(annotation.lockAtLeastFor(), "lockAtLeastFor", source);
        if (atMostFor != null && atLeastFor != null && atLeastFor.compareTo(atMostFor) > 0) {
            throw new InvalidJobDefinitionException(
                    source, "lockAtLeastFor (" + atLeastFor + ") is longer than lockAtMostFor (" + atMostFor + ")");
        }
        RetryPolicy retry = retryPolicy(annotation.retry(), source);
        Duration timeout = duration(annotation.timeout(), "timeout", source);
        if (timeout != null) {
            positive(timeout, "timeout", source);
        }
        Method invocable = AopUtils.selectInvocableMethod(method, bean.getClass());
        ReflectionUtils.makeAccessible(invocable);
        return new JobDefinition(
                name,
                schedule,
                annotation.misfire(),
                retry,
                timeout,
                atMostFor,
                atLeastFor,
                source,
                invoker(bean, invocable, passesContext));
    }

    private RetryPolicy retryPolicy(Retry retry, String source) {
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

    private static Duration orDefault(Duration value, Duration fallback) {
        return (value != null) ? value : fallback;
    }

    private static boolean checkParameters(Method method, String source) {
        Class<?>[] types = method.getParameterTypes();
        if (types.length == 0) {
            return false;
        }
        if (types.length == 1 && types[0] == JobContext.class) {
            return true;
        }
        String found = Arrays.stream(types).map(Class::getSimpleName).collect(Collectors.joining(", "));
        throw new InvalidJobDefinitionException(
                source, "the method must take no parameter or a single JobContext, but takes (" + found + ")");
    }

    private Schedule schedule(DistributedScheduled annotation, String cron, String source) {
        String fixedRate = resolve(annotation.fixedRate());
        String fixedDelay = resolve(annotation.fixedDelay());
        List<String> given = new ArrayList<>();
        if (StringUtils.hasText(cron)) {
            given.add("cron");
        }
        if (StringUtils.hasText(fixedRate)) {
            given.add("fixedRate");
        }
        if (StringUtils.hasText(fixedDelay)) {
            given.add("fixedDelay");
        }
        if (given.size() != 1) {
            throw new InvalidJobDefinitionException(
                    source,
                    "exactly one of cron, fixedRate and fixedDelay must be set, but "
                            + (given.isEmpty() ? "none is" : String.join(" and ", given) + " are"));
        }
        String zone = resolve(annotation.zone());
        Duration initialDelay = duration(annotation.initialDelay(), "initialDelay", source);
        if (given.contains("cron")) {
            if (initialDelay != null) {
                throw new InvalidJobDefinitionException(source, "initialDelay is not supported with cron");
            }
            try {
                CronExpression.parse(cron);
            } catch (IllegalArgumentException ex) {
                throw new InvalidJobDefinitionException(
                        source, "invalid cron expression '" + cron + "': " + ex.getMessage());
            }
            return new Schedule.Cron(cron, zone(zone, source));
        }
        if (StringUtils.hasText(zone)) {
            throw new InvalidJobDefinitionException(source, "zone applies to cron only");
        }
        Duration delay = (initialDelay != null) ? initialDelay : Duration.ZERO;
        if (given.contains("fixedRate")) {
            return new Schedule.FixedRate(
                    positive(duration(fixedRate, "fixedRate", source), "fixedRate", source), delay);
        }
        return new Schedule.FixedDelay(
                positive(duration(fixedDelay, "fixedDelay", source), "fixedDelay", source), delay);
    }

    private static ZoneId zone(String zone, String source) {
        if (!StringUtils.hasText(zone)) {
            return null;
        }
        try {
            return ZoneId.of(zone);
        } catch (DateTimeException ex) {
            throw new InvalidJobDefinitionException(source, "unknown zone '" + zone + "'");
        }
    }

    private Duration duration(String text, String attribute, String source) {
        String value = resolve(text);
        if (!StringUtils.hasText(value)) {
            return null;
        }
        try {
            Duration duration = DurationStyle.detectAndParse(value.trim(), ChronoUnit.MILLIS);
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

    private static Duration positive(Duration duration, String attribute, String source) {
        if (duration.isZero()) {
            throw new InvalidJobDefinitionException(source, attribute + " must be longer than zero");
        }
        return duration;
    }

    private String resolve(String value) {
        if (!StringUtils.hasText(value)) {
            return value;
        }
        String resolved = this.resolver.resolveStringValue(value);
        return (resolved != null) ? resolved.trim() : null;
    }

    private static JobInvoker invoker(Object bean, Method method, boolean passesContext) {
        return (context) -> {
            try {
                if (passesContext) {
                    method.invoke(bean, context);
                } else {
                    method.invoke(bean);
                }
            } catch (InvocationTargetException ex) {
                Throwable cause = ex.getTargetException();
                if (cause instanceof Exception exception) {
                    throw exception;
                }
                throw (Error) cause;
            }
        };
    }
}
