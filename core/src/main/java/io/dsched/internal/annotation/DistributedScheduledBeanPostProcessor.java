package io.dsched.internal.annotation;

import io.dsched.annotation.DistributedScheduled;
import io.dsched.definition.InvalidJobDefinitionException;
import io.dsched.definition.Schedule;
import io.dsched.execution.JobContext;
import io.dsched.internal.definition.JobDefinition;
import io.dsched.internal.definition.JobInvoker;
import io.dsched.internal.definition.JobRegistry;
import io.dsched.internal.retry.RetryDefaults;
import io.dsched.internal.retry.RetryPolicy;
import java.lang.reflect.Method;
import java.time.DateTimeException;
import java.time.Duration;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.config.BeanPostProcessor;
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

    private DeclarationValues values;

    /**
     * Creates a post-processor that registers jobs in the given registry.
     * @param registry where definitions go
     * @param retryDefaults the values of {@code dsched.retry.*}
     */
    public DistributedScheduledBeanPostProcessor(JobRegistry registry, Supplier<RetryDefaults> retryDefaults) {
        this.registry = registry;
        this.retryDefaults = retryDefaults;
        this.values = new DeclarationValues((value) -> value, retryDefaults);
    }

    @Override
    public void setEmbeddedValueResolver(StringValueResolver resolver) {
        this.values = new DeclarationValues(resolver, this.retryDefaults);
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
        String cron = this.values.resolve(annotation.cron());
        if (DistributedScheduled.CRON_DISABLED.equals(cron)) {
            return null;
        }
        boolean passesContext = checkParameters(method, source);
        String name = this.values.resolve(annotation.name());
        if (!StringUtils.hasText(name)) {
            name = beanName + "." + method.getName();
        }
        if (name.length() > 200) {
            throw new InvalidJobDefinitionException(source, "name '" + name + "' is longer than 200 characters");
        }
        Schedule schedule = schedule(annotation, cron, source);
        Duration atMostFor = this.values.duration(annotation.lockAtMostFor(), "lockAtMostFor", source);
        Duration atLeastFor = this.values.duration(annotation.lockAtLeastFor(), "lockAtLeastFor", source);
        if (atMostFor != null && atLeastFor != null && atLeastFor.compareTo(atMostFor) > 0) {
            throw new InvalidJobDefinitionException(
                    source, "lockAtLeastFor (" + atLeastFor + ") is longer than lockAtMostFor (" + atMostFor + ")");
        }
        RetryPolicy retry = this.values.retryPolicy(annotation.retry(), source);
        Duration timeout = this.values.duration(annotation.timeout(), "timeout", source);
        if (timeout != null) {
            this.values.positive(timeout, "timeout", source);
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
        String fixedRate = this.values.resolve(annotation.fixedRate());
        String fixedDelay = this.values.resolve(annotation.fixedDelay());
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
        String zone = this.values.resolve(annotation.zone());
        Duration initialDelay = this.values.duration(annotation.initialDelay(), "initialDelay", source);
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
            Schedule.Cron schedule = new Schedule.Cron(cron, zone(zone, source));
            if (schedule.neverFires()) {
                throw new InvalidJobDefinitionException(
                        source, "cron expression '" + cron + "' never fires: no date matches it");
            }
            return schedule;
        }
        if (StringUtils.hasText(zone)) {
            throw new InvalidJobDefinitionException(source, "zone applies to cron only");
        }
        Duration delay = (initialDelay != null) ? initialDelay : Duration.ZERO;
        if (given.contains("fixedRate")) {
            return new Schedule.FixedRate(
                    this.values.positive(this.values.duration(fixedRate, "fixedRate", source), "fixedRate", source),
                    delay);
        }
        return new Schedule.FixedDelay(
                this.values.positive(this.values.duration(fixedDelay, "fixedDelay", source), "fixedDelay", source),
                delay);
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

    private static JobInvoker invoker(Object bean, Method method, boolean passesContext) {
        return (context) -> {
            if (passesContext) {
                DeclarationValues.invoke(bean, method, context);
            } else {
                DeclarationValues.invoke(bean, method);
            }
        };
    }
}
