package io.dsched.sample.security;

import jakarta.servlet.DispatcherType;
import java.security.SecureRandom;
import java.util.Base64;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.security.autoconfigure.actuate.web.servlet.EndpointRequest;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;

/**
 * Who may do what in the sample. Health and Prometheus are open; everything else needs a signed-in
 * user: a form signs browsers in (the admin UI) and lands them on the page a link named, HTTP Basic
 * signs scripts in. All three users read the
 * orders, the operator and the admin place and pay them, and the dsched endpoint checks each user's
 * dsched role itself. Every unsafe request, whatever its path, carries the CSRF token that the
 * {@code XSRF-TOKEN} cookie holds, sent back in the {@code X-XSRF-TOKEN} header: no path is exempt,
 * so that no spelling of a path can reach a write without it.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(SampleUsers.class)
public class SecurityConfiguration {

    private static final Logger logger = LoggerFactory.getLogger(SecurityConfiguration.class);

    @Bean
    SecurityFilterChain securityFilterChain(HttpSecurity http) throws Exception {
        return http.authorizeHttpRequests((requests) -> requests
                        // the error page that a refusal forwards to, so that it keeps its status
                        .dispatcherTypeMatchers(DispatcherType.ERROR)
                        .permitAll()
                        .requestMatchers(EndpointRequest.to("health", "prometheus"))
                        .permitAll()
                        .requestMatchers(HttpMethod.POST, "/orders", "/orders/**")
                        .hasAnyRole("DSCHED_OPERATOR", "DSCHED_ADMIN")
                        .anyRequest()
                        .authenticated())
                // a form of the sample's own, which keeps the page a link into the admin UI named
                .formLogin((form) -> form.loginPage(SignInPage.PATH).permitAll())
                .httpBasic(Customizer.withDefaults())
                // the token in a cookie that the UI and scripts read and send back in X-XSRF-TOKEN
                .csrf((csrf) -> csrf.spa())
                // a write refused for want of the token says so, and how to send it
                .exceptionHandling((handling) -> handling.accessDeniedHandler(new CsrfRefusal()))
                .build();
    }

    @Bean
    InMemoryUserDetailsManager users(SampleUsers users) {
        PasswordEncoder encoder = PasswordEncoderFactories.createDelegatingPasswordEncoder();
        return new InMemoryUserDetailsManager(
                user("viewer", users.getViewerPassword(), "DSCHED_VIEWER", encoder),
                user("operator", users.getOperatorPassword(), "DSCHED_OPERATOR", encoder),
                user("admin", users.getAdminPassword(), "DSCHED_ADMIN", encoder));
    }

    private static UserDetails user(String name, String password, String role, PasswordEncoder encoder) {
        if (password == null || password.isBlank()) {
            password = generated();
            logger.warn(
                    "Generated the password of the admin UI's user '{}': {} (set sample.users.{}-password to choose one)",
                    name,
                    password,
                    name);
        }
        return User.withUsername(name)
                .password(encoder.encode(password))
                .roles(role)
                .build();
    }

    private static String generated() {
        byte[] bytes = new byte[12];
        new SecureRandom().nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
