package io.dsched.sample.security;

import java.security.SecureRandom;
import java.util.Base64;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;

/**
 * Signs users in to the admin UI with a form (and scripts with HTTP Basic) and protects the dsched
 * endpoint's writes against cross-site requests with a token the UI reads from the
 * {@code XSRF-TOKEN} cookie. The dsched endpoint checks each user's role itself. The shop's own API
 * and the health and Prometheus endpoints stay open, as before.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(SampleUsers.class)
public class SecurityConfiguration {

    private static final Logger logger = LoggerFactory.getLogger(SecurityConfiguration.class);

    @Bean
    SecurityFilterChain securityFilterChain(HttpSecurity http) throws Exception {
        return http.authorizeHttpRequests(
                        (requests) -> requests.requestMatchers("/actuator/dsched-ui", "/actuator/dsched-ui/**")
                                .authenticated()
                                .anyRequest()
                                .permitAll())
                .formLogin(Customizer.withDefaults())
                .httpBasic(Customizer.withDefaults())
                // the token in a cookie the UI reads and sends back in X-XSRF-TOKEN; the shop's
                // own API below takes no credentials, so there is nothing to forge there
                .csrf((csrf) -> csrf.spa()
                        .ignoringRequestMatchers(
                                (request) -> !request.getRequestURI().startsWith("/actuator/")
                                        && !request.getRequestURI().equals("/login")
                                        && !request.getRequestURI().equals("/logout")))
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
