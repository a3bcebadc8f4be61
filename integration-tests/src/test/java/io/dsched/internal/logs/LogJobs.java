package io.dsched.internal.logs;

import io.dsched.annotation.DistributedScheduled;
import io.dsched.execution.JobContext;
import io.dsched.retry.Retry;
import java.io.IOException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The application of the log capture tests: jobs whose crons are never due in a test, so that the
 * test delivers their fires, each logging a known set of lines.
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
public class LogJobs {

    static final String NEVER = "0 0 0 1 1 *";

    private static final Logger logger = LoggerFactory.getLogger(LogJobs.class);

    @Bean
    Jobs jobs() {
        return new Jobs();
    }

    /** The jobs. */
    public static class Jobs {

        /** Where "left" and "right" wait for each other between two lines. */
        private final CyclicBarrier turns = new CyclicBarrier(2);

        @DistributedScheduled(
                name = "doomed",
                cron = NEVER,
                retry = @Retry(maxAttempts = 2, delay = "100ms", jitter = "0ms"))
        public void doomed(JobContext context) throws InterruptedException {
            logger.info("Loading batch 7 on attempt {}", context.attempt());
            logger.debug("Below the captured level on attempt {}", context.attempt());
            logger.warn("Partner slow on attempt {}", context.attempt(), new IOException("read timed out"));
            Thread helper = new Thread(() -> logger.info("From a helper thread on attempt {}", context.attempt()));
            helper.start();
            helper.join(10_000);
            throw new IllegalStateException("partner down on attempt " + context.attempt());
        }

        @DistributedScheduled(name = "left", cron = NEVER)
        public void left() throws Exception {
            takeTurns("left");
        }

        @DistributedScheduled(name = "right", cron = NEVER)
        public void right() throws Exception {
            takeTurns("right");
        }

        private void takeTurns(String name) throws Exception {
            for (int i = 0; i < 3; i++) {
                logger.info("{} says {}", name, i);
                this.turns.await(10, TimeUnit.SECONDS);
            }
        }

        @DistributedScheduled(name = "verbose", cron = NEVER)
        public void verbose() {
            for (int i = 0; i < 500; i++) {
                logger.info("Line {} {}", i, "x".repeat(80));
            }
        }

        @DistributedScheduled(name = "quiet", cron = NEVER)
        public void quiet() {
            logger.debug("Below the captured level");
        }

        @DistributedScheduled(name = "chatty", cron = NEVER)
        public void chatty() {
            logger.info("Settled 3 invoices");
        }
    }
}
