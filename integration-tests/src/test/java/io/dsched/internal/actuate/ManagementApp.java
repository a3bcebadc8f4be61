package io.dsched.internal.actuate;

import io.dsched.annotation.DistributedScheduled;
import io.dsched.annotation.JobHandler;
import io.dsched.retry.Retry;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The application of the endpoint tests: jobs whose crons are never due in a test, a job that
 * always fails into a dead letter, a handler for jobs defined at run time, and a handler that
 * runs until the test releases it (or for 30 seconds at most).
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
public class ManagementApp {

    static final String NEVER = "0 0 0 1 1 *";

    @Bean
    Jobs jobs() {
        return new Jobs();
    }

    /** The jobs. */
    public static class Jobs {

        private final CountDownLatch released = new CountDownLatch(1);

        @DistributedScheduled(name = "report", cron = NEVER, zone = "Europe/Berlin")
        public void report() {}

        @DistributedScheduled(name = "doomed", cron = NEVER, retry = @Retry(maxAttempts = 1))
        public void doomed() {
            throw new IllegalStateException("partner <script>alert(1)</script> is down");
        }

        @DistributedScheduled(name = "ledger", cron = NEVER, shards = "3", shardParams = "0=north")
        public void ledger() {}

        @DistributedScheduled(name = "warmup", cron = NEVER, broadcast = true)
        public void warmup() {}

        @JobHandler("mailer")
        public void mail(Mail mail) {}

        @JobHandler(value = "capture", maxConcurrent = 3, rate = "50/1s")
        public void capture() {}

        @JobHandler("holder")
        public void hold() throws InterruptedException {
            this.released.await(30, TimeUnit.SECONDS);
        }

        void release() {
            this.released.countDown();
        }
    }

    /**
     * The payload of the mailer.
     *
     * @param to the recipient
     */
    public record Mail(String to) {}
}
