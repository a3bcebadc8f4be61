package io.dsched.internal.actuate;

import io.dsched.actuate.ValueSanitizer;
import io.dsched.annotation.JobHandler;
import io.dsched.retry.Retry;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * The application of the show-values tests: a handler that logs a line of its payload and fails
 * into a dead letter at once, with the endpoint behind Spring Security ({@link Secured}), without it
 * ({@link Unsecured}), or with a sanitizer of the application's own ({@link WithSanitizer}).
 */
public final class ShowValuesApp {

    /** What the application's sanitizer shows instead of a note. */
    static final String REDACTED = "[redacted by the application]";

    private ShowValuesApp() {}

    /** The handler's bean. */
    @Configuration(proxyBeanMethods = false)
    public static class Handlers {

        @Bean
        Charges charges() {
            return new Charges();
        }
    }

    /** The handler. */
    public static class Charges {

        private static final Logger logger = LoggerFactory.getLogger(Charges.class);

        @JobHandler(value = "charge", retry = @Retry(maxAttempts = 1))
        public void charge(Map<String, Object> payload) {
            logger.info("Charging {}", payload.get("to"));
            throw new IllegalStateException("card declined");
        }
    }

    /** Behind Spring Security, with a user per role. */
    @Configuration(proxyBeanMethods = false)
    @Import({SecuredManagementApp.class, Handlers.class})
    public static class Secured {}

    /** Without Spring Security: run it with a class loader that hides it. */
    @Configuration(proxyBeanMethods = false)
    @Import({ManagementApp.class, Handlers.class})
    public static class Unsecured {}

    /** Behind Spring Security, with a sanitizer that redacts notes and leaves everything else. */
    @Configuration(proxyBeanMethods = false)
    @Import(Secured.class)
    public static class WithSanitizer {

        @Bean
        ValueSanitizer notesOnly() {
            return (data) -> "note".equals(data.lowerCaseKey()) ? REDACTED : data.value();
        }
    }
}
