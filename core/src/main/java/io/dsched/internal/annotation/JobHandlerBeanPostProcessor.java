package io.dsched.internal.annotation;

import io.dsched.annotation.Adaptive;
import io.dsched.annotation.JobHandler;
import io.dsched.definition.InvalidJobDefinitionException;
import io.dsched.execution.JobContext;
import io.dsched.internal.execution.JobTarget;
import io.dsched.internal.execution.Rate;
import io.dsched.internal.handler.HandlerDefinition;
import io.dsched.internal.handler.HandlerRegistry;
import io.dsched.internal.retry.RetryDefaults;
import io.dsched.internal.store.TargetLimits;
import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.time.Duration;
import java.util.Map;
import java.util.function.Supplier;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.context.EmbeddedValueResolverAware;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.StringUtils;
import org.springframework.util.StringValueResolver;
import tools.jackson.core.JsonPointer;
import tools.jackson.databind.json.JsonMapper;

/**
 * Finds {@link JobHandler} methods on beans and registers each in the {@link HandlerRegistry}; an
 * invalid declaration fails the start-up with a message naming the method.
 */
public class JobHandlerBeanPostProcessor implements BeanPostProcessor, EmbeddedValueResolverAware {

    private final HandlerRegistry registry;

    private final Supplier<RetryDefaults> retryDefaults;

    private final Supplier<JsonMapper> json;

    private DeclarationValues values;

    /**
     * Creates a post-processor.
     * @param registry where handlers go
     * @param retryDefaults the values of {@code dsched.retry.*}
     * @param json reads payloads
     */
    public JobHandlerBeanPostProcessor(
            HandlerRegistry registry, Supplier<RetryDefaults> retryDefaults, Supplier<JsonMapper> json) {
        this.registry = registry;
        this.retryDefaults = retryDefaults;
        this.json = json;
        this.values = new DeclarationValues((value) -> value, retryDefaults);
    }

    @Override
    public void setEmbeddedValueResolver(StringValueResolver resolver) {
        this.values = new DeclarationValues(resolver, this.retryDefaults);
    }

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        Class<?> targetClass = AopUtils.getTargetClass(bean);
        Map<Method, JobHandler> annotated =
                MethodIntrospector.selectMethods(targetClass, (MethodIntrospector.MetadataLookup<JobHandler>)
                        (method) -> AnnotatedElementUtils.findMergedAnnotation(method, JobHandler.class));
        annotated.forEach(
                (method, annotation) -> this.registry.register(define(bean, targetClass, method, annotation)));
        return bean;
    }

    private HandlerDefinition define(Object bean, Class<?> targetClass, Method method, JobHandler annotation) {
        String source = ClassUtils.getShortName(targetClass) + "." + method.getName() + "()";
        String name = this.values.resolve(annotation.value());
        if (!StringUtils.hasText(name) || name.length() > 200) {
            throw new InvalidJobDefinitionException(source, "@JobHandler needs a name of 1 to 200 characters");
        }
        Class<?>[] types = method.getParameterTypes();
        Type[] generic = method.getGenericParameterTypes();
        if (types.length > 2) {
            throw new InvalidJobDefinitionException(
                    source,
                    "a handler takes its payload, a JobContext, both or neither, but this takes " + types.length
                            + " parameters");
        }
        int contextIndex = -1;
        int payloadIndex = -1;
        for (int i = 0; i < types.length; i++) {
            if (types[i] == JobContext.class && contextIndex < 0) {
                contextIndex = i;
            } else if (payloadIndex < 0) {
                payloadIndex = i;
            } else {
                throw new InvalidJobDefinitionException(source, "a handler takes one payload parameter only");
            }
        }
        Duration timeout = this.values.duration(annotation.timeout(), "timeout", source);
        if (timeout != null) {
            DeclarationValues.positive(timeout, "timeout", source);
        }
        Method invocable = AopUtils.selectInvocableMethod(method, bean.getClass());
        ReflectionUtils.makeAccessible(invocable);
        Type payloadType = (payloadIndex >= 0) ? generic[payloadIndex] : null;
        return new HandlerDefinition(
                name,
                payloadType,
                this.values.group(annotation.group(), source),
                this.values.retryPolicy(annotation.retry(), source),
                timeout,
                source,
                maxConcurrent(annotation.maxConcurrent(), source),
                rate(annotation.rate(), "rate", source),
                partitionBy(annotation, source),
                annotation.priority(),
                rate(annotation.quota(), "quota", source),
                adaptive(annotation, source),
                rate(annotation.nodeRate(), "nodeRate", source),
                keyRate(annotation, source),
                invoker(bean, invocable, types.length, contextIndex, payloadIndex, payloadType));
    }

    private static int maxConcurrent(int maxConcurrent, String source) {
        if (maxConcurrent < 0) {
            throw new InvalidJobDefinitionException(
                    source, "maxConcurrent is the most attempts running at once, 0 for no limit, not " + maxConcurrent);
        }
        return maxConcurrent;
    }

    private String partitionBy(JobHandler annotation, String source) {
        String pointer = this.values.resolve(annotation.partitionBy());
        if (!StringUtils.hasText(pointer)) {
            return null;
        }
        if (annotation.maxConcurrent() == 0 && !StringUtils.hasText(this.values.resolve(annotation.keyRate()))) {
            throw new InvalidJobDefinitionException(
                    source,
                    "partitionBy counts maxConcurrent and keyRate per key, but the handler sets no maxConcurrent"
                            + " and no keyRate");
        }
        try {
            JsonPointer.compile(pointer);
        } catch (IllegalArgumentException ex) {
            throw new InvalidJobDefinitionException(
                    source,
                    "partitionBy is a JSON Pointer into the payload, such as \"/tenant\", not \"" + pointer + "\"");
        }
        return pointer;
    }

    private Rate keyRate(JobHandler annotation, String source) {
        Rate keyRate = rate(annotation.keyRate(), "keyRate", source);
        if (keyRate != null && !StringUtils.hasText(this.values.resolve(annotation.partitionBy()))) {
            throw new InvalidJobDefinitionException(
                    source, "keyRate is a rate of each key, but the handler sets no partitionBy to find its keys");
        }
        return keyRate;
    }

    private TargetLimits.Adaptive adaptive(JobHandler annotation, String source) {
        Adaptive adaptive = annotation.adaptive();
        if (adaptive.failureRatio() == 0) {
            return null;
        }
        if (!(adaptive.failureRatio() > 0 && adaptive.failureRatio() <= 1)) {
            throw new InvalidJobDefinitionException(
                    source, "@Adaptive failureRatio is a share above 0 and at most 1, not " + adaptive.failureRatio());
        }
        if (annotation.maxConcurrent() == 0) {
            throw new InvalidJobDefinitionException(
                    source, "@Adaptive adapts maxConcurrent, but the handler sets no maxConcurrent");
        }
        if (adaptive.min() < 1 || adaptive.min() > annotation.maxConcurrent() || adaptive.minOutcomes() < 1) {
            throw new InvalidJobDefinitionException(
                    source,
                    "@Adaptive min is 1 to maxConcurrent (" + annotation.maxConcurrent() + "), not " + adaptive.min()
                            + ", and minOutcomes at least 1, not " + adaptive.minOutcomes());
        }
        Duration window = this.values.duration(adaptive.window(), "@Adaptive window", source);
        if (window == null || window.compareTo(Duration.ofMillis(100)) < 0) {
            throw new InvalidJobDefinitionException(source, "@Adaptive window is at least 100ms, not " + window);
        }
        return new TargetLimits.Adaptive(adaptive.failureRatio(), window, adaptive.minOutcomes(), adaptive.min());
    }

    private Rate rate(String rate, String attribute, String source) {
        String value = this.values.resolve(rate);
        if (!StringUtils.hasText(value)) {
            return null;
        }
        try {
            return Rate.parse(value);
        } catch (IllegalArgumentException ex) {
            throw new InvalidJobDefinitionException(source, attribute + " " + ex.getMessage());
        }
    }

    private JobTarget.Invoker invoker(
            Object bean, Method method, int arity, int contextIndex, int payloadIndex, Type payloadType) {
        return (context, payload) -> {
            Object[] arguments = new Object[arity];
            if (contextIndex >= 0) {
                arguments[contextIndex] = context;
            }
            if (payloadIndex >= 0) {
                JsonMapper mapper = this.json.get();
                arguments[payloadIndex] = (payload != null)
                        ? mapper.readValue(payload, mapper.getTypeFactory().constructType(payloadType))
                        : null;
            }
            DeclarationValues.invoke(bean, method, arguments);
        };
    }
}
