package io.dsched.autoconfigure;

import io.dsched.internal.actuate.DschedEndpoint;
import io.dsched.internal.actuate.RequestSizeLimit;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointProperties;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextType;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * What the {@code dsched} endpoint needs of the servlet container, in the context that serves it:
 * the application's, or the management context on the management port when one is set.
 */
@ManagementContextConfiguration(value = ManagementContextType.ANY, proxyBeanMethods = false)
@ConditionalOnWebApplication(type = Type.SERVLET)
@ConditionalOnClass(OncePerRequestFilter.class)
@ConditionalOnAvailableEndpoint(endpoint = DschedEndpoint.class)
public final class DschedEndpointWebConfiguration {

    @Bean
    FilterRegistrationBean<RequestSizeLimit> dschedRequestSizeLimit(WebEndpointProperties endpoints) {
        String path = endpoints.getPathMapping().getOrDefault("dsched", "dsched");
        String endpoint = endpoints.getBasePath() + (path.startsWith("/") ? path : "/" + path);
        FilterRegistrationBean<RequestSizeLimit> registration =
                new FilterRegistrationBean<>(new RequestSizeLimit(endpoint));
        // before anything that reads a body, Spring Security's filters included
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 10);
        return registration;
    }
}
