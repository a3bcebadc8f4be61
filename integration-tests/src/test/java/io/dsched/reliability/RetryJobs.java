package io.dsched.reliability;

import io.dsched.annotation.DistributedScheduled;
import io.dsched.execution.JobContext;
import io.dsched.retry.Retry;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The application of the retry tests: jobs that fail every attempt with the failure a test set for
 * the fire, under retry policies that choose by failure type or spread their waits. Their cron is
 * never due in a test; the tests deliver the fires.
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
public class RetryJobs {

    static final String NEVER = "0 0 0 1 1 *";

    /** What each fire fails with, by its scheduled time. */
    static final Map<Instant, RuntimeException> FAILURES = new ConcurrentHashMap<>();

    @Bean
    Jobs jobs() {
        return new Jobs();
    }

    /** A failure worth retrying. */
    public static class TransientFailure extends RuntimeException {

        public TransientFailure(String message) {
            super(message);
        }
    }

    /** A kind of {@link TransientFailure} that the selective job excludes all the same. */
    public static class PermanentFailure extends TransientFailure {

        public PermanentFailure(String message) {
            super(message);
        }
    }

    /** The jobs; each retry waits a minute, so that no retry runs during a test. */
    public static class Jobs {

        @DistributedScheduled(
                name = "selective",
                cron = NEVER,
                retry =
                        @Retry(
                                maxAttempts = 2,
                                delay = "60s",
                                jitter = "0ms",
                                includes = TransientFailure.class,
                                excludes = PermanentFailure.class))
        public void selective(JobContext context) {
            throw FAILURES.get(context.scheduledAt());
        }

        @DistributedScheduled(
                name = "excluding",
                cron = NEVER,
                retry = @Retry(maxAttempts = 2, delay = "60s", jitter = "0ms", excludes = PermanentFailure.class))
        public void excluding(JobContext context) {
            throw FAILURES.get(context.scheduledAt());
        }

        @DistributedScheduled(
                name = "jittery",
                cron = NEVER,
                retry = @Retry(maxAttempts = 2, delay = "10s", multiplier = 1, jitter = "2s"))
        public void jittery(JobContext context) {
            throw new IllegalStateException("down at " + context.scheduledAt());
        }
    }
}
