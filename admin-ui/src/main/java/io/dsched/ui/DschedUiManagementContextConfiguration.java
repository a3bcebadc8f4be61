package io.dsched.ui;

import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointProperties;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextType;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication.Type;
import org.springframework.context.annotation.Bean;
import org.springframework.web.servlet.DispatcherServlet;
import org.springframework.web.servlet.handler.SimpleUrlHandlerMapping;

/**
 * Serves the admin UI's files from {@code classpath:/META-INF/dsched-ui/} at
 * {@code {management base path}/dsched-ui/}, such as {@code /actuator/dsched-ui/}: in the
 * application's context, or in the management context on the management port when one is set.
 * {@code dsched.ui.enabled=false} turns it off.
 */
@ManagementContextConfiguration(value = ManagementContextType.ANY, proxyBeanMethods = false)
@ConditionalOnWebApplication(type = Type.SERVLET)
@ConditionalOnClass(DispatcherServlet.class)
@ConditionalOnBooleanProperty(name = "dsched.ui.enabled", matchIfMissing = true)
public class DschedUiManagementContextConfiguration {

    /** The path of the UI under the management base path. */
    public static final String PATH = "/dsched-ui";

    @Bean
    SimpleUrlHandlerMapping dschedUiHandlerMapping(WebEndpointProperties endpoints) throws IOException {
        String base = endpoints.getBasePath() + PATH;
        UiFiles files = new UiFiles(UiFiles.load("classpath:/META-INF/dsched-ui/"));
        Map<String, Object> urls = new LinkedHashMap<>();
        urls.put(base, files);
        urls.put(base + "/**", files);
        SimpleUrlHandlerMapping mapping = new SimpleUrlHandlerMapping(urls, 0);
        return mapping;
    }
}
