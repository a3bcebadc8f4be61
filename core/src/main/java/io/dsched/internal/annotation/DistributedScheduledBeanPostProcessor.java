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
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.EmbeddedValueResolverAware;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
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
        Schedule schedule = DeclaredSchedules.schedule(this.values, annotation, cron, source);
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
                this.values.group(annotation.group(), source),
                retry,
                timeout,
                atMostFor,
                atLeastFor,
                jitter(annotation.jitter(), schedule, source),
                DeclaredShards.sharding(this.values, annotation, schedule, source),
                source,
                invoker(bean, invocable, passesContext));
    }

    private Duration jitter(String jitter, Schedule schedule, String source) {
        Duration window = this.values.duration(jitter, "jitter", source);
        if (window == null) {
            return null;
        }
        DeclarationValues.positive(window, "jitter", source);
        if (schedule instanceof Schedule.FixedDelay) {
            throw new InvalidJobDefinitionException(
                    source,
                    "a fixed delay times each fire from the end of the"
                            + " last run, which a jitter would move: use a fixed rate or a cron");
        }
        if (schedule instanceof Schedule.FixedRate rate && window.compareTo(rate.interval()) >= 0) {
            throw new InvalidJobDefinitionException(
                    source, "jitter " + window + " is not shorter than the fixed rate " + rate.interval());
        }
        return window;
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
