package io.dsched.internal.history;

import io.dsched.annotation.DistributedScheduled;
import io.dsched.annotation.JobHandler;
import io.dsched.execution.JobContext;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The application of the housekeeping tests: a job every second that logs a line, jobs whose
 * crons are never due in a test, run by hand (one of them until the test lets it end), and a
 * handler of one-off jobs.
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
public class HousekeepingJobs {

    static final String NEVER = "0 0 0 1 1 *";

    private static final Logger logger = LoggerFactory.getLogger(HousekeepingJobs.class);

    /** What "hold" waits for; replaced by each test. */
    static volatile CountDownLatch release = new CountDownLatch(1);

    @Bean
    Jobs jobs() {
        return new Jobs();
    }

    /** The jobs. */
    public static class Jobs {

        @DistributedScheduled(name = "tick", cron = "* * * * * *")
        public void tick(JobContext context) {
            logger.info("Tick of {}", context.scheduledAt());
        }

        @DistributedScheduled(name = "yearly", cron = NEVER)
        public void yearly(JobContext context) {
            logger.info("Yearly run, attempt {}", context.attempt());
        }

        @DistributedScheduled(name = "hold", cron = NEVER)
        public void hold() throws InterruptedException {
            release.await(60, TimeUnit.SECONDS);
        }

        @JobHandler("remind")
        public void remind(String message) {
            logger.info("Reminding: {}", message);
        }
    }
}
