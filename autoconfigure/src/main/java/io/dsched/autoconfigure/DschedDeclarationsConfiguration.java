package io.dsched.autoconfigure;

import io.dsched.annotation.DistributedScheduled;
import io.dsched.internal.annotation.DistributedScheduledBeanPostProcessor;
import io.dsched.internal.annotation.JobHandlerBeanPostProcessor;
import io.dsched.internal.definition.JobRegistry;
import io.dsched.internal.handler.HandlerRegistry;
import io.dsched.internal.retry.RetryDefaults;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.LazyInitializationExcludeFilter;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import org.springframework.core.MethodIntrospector;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.env.Environment;
import tools.jackson.databind.json.JsonMapper;

/**
 * The registries of declared jobs and handlers and the post-processors that fill them. Every
 * method is static: post-processors are created before the configuration's own beans, and
 * before the properties are bound, so they read the retry defaults from the environment.
 */
@Configuration(proxyBeanMethods = false)
final class DschedDeclarationsConfiguration {

    @Bean
    @ConditionalOnMissingBean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static JobRegistry dschedJobRegistry() {
        return new JobRegistry();
    }

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static DistributedScheduledBeanPostProcessor distributedScheduledBeanPostProcessor(
            JobRegistry registry, Environment environment) {
        return new DistributedScheduledBeanPostProcessor(registry, () -> retryDefaults(environment));
    }

    @Bean
    @ConditionalOnMissingBean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static HandlerRegistry dschedHandlerRegistry() {
        return new HandlerRegistry();
    }

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static PayloadJsonMapper dschedPayloadJsonMapper(ObjectProvider<JsonMapper> jsonMappers) {
        return new PayloadJsonMapper(jsonMappers);
    }

    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static JobHandlerBeanPostProcessor jobHandlerBeanPostProcessor(
            HandlerRegistry registry, Environment environment, PayloadJsonMapper payloadJsonMapper) {
        return new JobHandlerBeanPostProcessor(registry, () -> retryDefaults(environment), payloadJsonMapper);
    }

    @Bean
    static LazyInitializationExcludeFilter dschedLazyInitializationExcludeFilter() {
        return (beanName, definition, beanType) -> hasDistributedScheduledMethods(beanType);
    }

    private static boolean hasDistributedScheduledMethods(Class<?> type) {
        return !MethodIntrospector.selectMethods(type, (MethodIntrospector.MetadataLookup<DistributedScheduled>)
                        (method) -> AnnotatedElementUtils.findMergedAnnotation(method, DistributedScheduled.class))
                .isEmpty();
    }

    private static RetryDefaults retryDefaults(Environment environment) {
        DschedProperties.Retry retry = Binder.get(environment)
                .bind("dsched.retry", DschedProperties.Retry.class)
                .orElseGet(DschedProperties.Retry::new);
        return new RetryDefaults(
                retry.getMaxRetries(), retry.getDelay(), retry.getMultiplier(), retry.getMaxDelay(), retry.getJitter());
    }
}
