package io.dsched.ui;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;

/**
 * The UI's files are served under the Actuator base path with their security headers, on the
 * management port when one is set, and not at all with {@code dsched.ui.enabled=false}.
 */
class DschedUiServingTests {

    private final HttpClient http = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .followRedirects(HttpClient.Redirect.NEVER)
            .build();

    @Test
    void theUiIsServedUnderTheActuatorBasePathWithItsSecurityHeaders() throws Exception {
        try (ConfigurableApplicationContext app = start(Map.of())) {
            int port = port(app, "local.server.port");
            HttpResponse<String> index = get(port, "/actuator/dsched-ui/");
            assertThat(index.statusCode()).isEqualTo(200);
            assertThat(index.headers().firstValue("Content-Type"))
                    .hasValueSatisfying((type) -> assertThat(type).startsWith("text/html"));
            assertThat(index.body()).contains("<script type=\"module\" src=\"app.js\"></script>");
            assertThat(index.headers().firstValue("Content-Security-Policy")).hasValue(UiFiles.CONTENT_SECURITY_POLICY);
            assertThat(UiFiles.CONTENT_SECURITY_POLICY)
                    .contains("script-src 'self';")
                    .doesNotContain("unsafe-inline")
                    .contains("frame-ancestors 'none'")
                    .contains("form-action 'self'");
            assertThat(index.headers().firstValue("Permissions-Policy")).hasValue(UiFiles.PERMISSIONS_POLICY);
            assertThat(UiFiles.PERMISSIONS_POLICY.split(", "))
                    .contains("camera=()", "microphone=()", "geolocation=()", "payment=()", "usb=()")
                    .allSatisfy((feature) -> assertThat(feature).endsWith("=()"));
            assertThat(index.headers().firstValue("Cross-Origin-Opener-Policy")).hasValue("same-origin");
            assertThat(index.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");

            HttpResponse<String> script = get(port, "/actuator/dsched-ui/app.js");
            assertThat(script.statusCode()).isEqualTo(200);
            assertThat(script.headers().firstValue("Content-Type"))
                    .hasValueSatisfying((type) -> assertThat(type).startsWith("text/javascript"));
            assertThat(script.headers().firstValue("Content-Security-Policy"))
                    .hasValue(UiFiles.CONTENT_SECURITY_POLICY);
            assertThat(script.headers().firstValue("Permissions-Policy")).hasValue(UiFiles.PERMISSIONS_POLICY);
            assertThat(script.headers().firstValue("Cross-Origin-Opener-Policy"))
                    .hasValue("same-origin");
            String etag = script.headers().firstValue("ETag").orElseThrow();
            HttpResponse<String> again = this.http.send(
                    HttpRequest.newBuilder(uri(port, "/actuator/dsched-ui/app.js"))
                            .header("If-None-Match", etag)
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(again.statusCode()).isEqualTo(304);

            HttpResponse<String> bare = get(port, "/actuator/dsched-ui");
            assertThat(bare.statusCode()).isEqualTo(302);
            assertThat(bare.headers().firstValue("Location"))
                    .hasValueSatisfying((location) -> assertThat(location).endsWith("/actuator/dsched-ui/"));
            assertThat(get(port, "/actuator/dsched-ui/../application.properties")
                            .statusCode())
                    .isIn(400, 404);
            assertThat(get(port, "/actuator/dsched-ui/nosuch.js").statusCode()).isEqualTo(404);
        }
    }

    @Test
    void theUiFollowsTheEndpointsToTheManagementPort() throws Exception {
        try (ConfigurableApplicationContext app = start(Map.of("management.server.port", "0"))) {
            int management = port(app, "local.management.port");
            int server = port(app, "local.server.port");
            assertThat(management).isNotEqualTo(server);
            HttpResponse<String> index = get(management, "/actuator/dsched-ui/");
            assertThat(index.statusCode()).isEqualTo(200);
            assertThat(index.headers().firstValue("Content-Security-Policy")).isPresent();
            assertThat(get(server, "/actuator/dsched-ui/").statusCode()).isEqualTo(404);
        }
    }

    @Test
    void theUiFollowsTheBasePath() throws Exception {
        try (ConfigurableApplicationContext app = start(Map.of("management.endpoints.web.base-path", "/manage"))) {
            int port = port(app, "local.server.port");
            assertThat(get(port, "/manage/dsched-ui/app.css").statusCode()).isEqualTo(200);
            assertThat(get(port, "/actuator/dsched-ui/app.css").statusCode()).isEqualTo(404);
        }
    }

    @Test
    void theUiIsNotServedWhenTurnedOff() throws Exception {
        try (ConfigurableApplicationContext app = start(Map.of("dsched.ui.enabled", "false"))) {
            assertThat(get(port(app, "local.server.port"), "/actuator/dsched-ui/")
                            .statusCode())
                    .isEqualTo(404);
        }
    }

    private static ConfigurableApplicationContext start(Map<String, Object> properties) {
        return new SpringApplicationBuilder(App.class)
                .properties("server.port=0", "spring.main.banner-mode=off")
                .properties(properties)
                .run();
    }

    private static int port(ConfigurableApplicationContext app, String property) {
        return Integer.parseInt(app.getEnvironment().getRequiredProperty(property));
    }

    private HttpResponse<String> get(int port, String path) throws Exception {
        return this.http.send(HttpRequest.newBuilder(uri(port, path)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static URI uri(int port, String path) {
        return URI.create("http://localhost:" + port + path);
    }

    @Configuration(proxyBeanMethods = false)
    @EnableAutoConfiguration
    static class App {}
}
