package io.dsched.internal.notify;

import io.dsched.annotation.DistributedScheduled;
import io.dsched.retry.Retry;
import java.util.concurrent.atomic.AtomicBoolean;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The application of the notification tests: jobs whose crons are never due in a test, so that
 * the test delivers their fires.
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
public class NotifyJobs {

    static final String NEVER = "0 0 0 1 1 *";

    @Bean
    Jobs jobs() {
        return new Jobs();
    }

    /** The jobs. */
    public static class Jobs {

        /** Whether {@code flaky} fails. */
        final AtomicBoolean failing = new AtomicBoolean(true);

        /** Dead-lettered at its first failure. */
        @DistributedScheduled(name = "doomed", cron = NEVER, retry = @Retry(maxAttempts = 1))
        public void doomed() {
            throw new IllegalStateException("partner down");
        }

        /** Fails while told to; its retries are not due before the test ends. */
        @DistributedScheduled(name = "flaky", cron = NEVER, retry = @Retry(maxRetries = 3, delay = "1h"))
        public void flaky() {
            if (this.failing.get()) {
                throw new IllegalStateException("flaky failure");
            }
        }
    }
}
