package io.dsched.internal.actuate;

import java.util.Map;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.security.config.Customizer;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.crypto.password.DelegatingPasswordEncoder;
import org.springframework.security.crypto.password.NoOpPasswordEncoder;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;

/**
 * {@link ManagementApp} behind Spring Security with HTTP Basic and one user per role, plus one with
 * no dsched role. The filter chain lets every request through to the endpoint, so that the
 * endpoint's own role checks are what the tests see.
 */
@Configuration(proxyBeanMethods = false)
@Import(ManagementApp.class)
public class SecuredManagementApp {

    static final String PASSWORD = "test-only-password";

    @Bean
    SecurityFilterChain securityFilterChain(HttpSecurity http) throws Exception {
        return http.authorizeHttpRequests((requests) -> requests.anyRequest().permitAll())
                .httpBasic(Customizer.withDefaults())
                .csrf((csrf) -> csrf.disable())
                .build();
    }

    /**
     * Keeps the passwords as they are written, {@code {noop}}: the default encoder would upgrade
     * each to bcrypt at its first sign-in, after which every request of the tests (a hostile one
     * sends six hundred) spent a tenth of a second in bcrypt.
     */
    @Bean
    PasswordEncoder passwordEncoder() {
        return new DelegatingPasswordEncoder("noop", Map.of("noop", NoOpPasswordEncoder.getInstance()));
    }

    @Bean
    InMemoryUserDetailsManager users() {
        return new InMemoryUserDetailsManager(
                user("viewer", "DSCHED_VIEWER"),
                user("operator", "DSCHED_OPERATOR"),
                user("admin", "DSCHED_ADMIN"),
                user("stranger", "SOMETHING_ELSE"));
    }

    private static UserDetails user(String name, String role) {
        return User.withUsername(name).password("{noop}" + PASSWORD).roles(role).build();
    }
}
