package io.dsched.queue;

import io.dsched.annotation.DistributedScheduled;
import io.dsched.annotation.JobHandler;
import io.dsched.execution.JobContext;
import io.dsched.retry.Retry;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The application of the notice tests: a one-off handler, a job that fails for good until told
 * not to, and a scheduled job that only runs when triggered by hand. Each records when and where
 * its runs started, by execution id, across all nodes of the JVM.
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
public class NoticeJobs {

    /** When each run started, and on which node, by execution id. */
    static final Map<Long, Started> STARTED = new ConcurrentHashMap<>();

    /** Whether the failing job fails. */
    static volatile boolean failing = true;

    static void reset() {
        STARTED.clear();
        failing = true;
    }

    /** Where and when a run started. */
    record Started(String node, Instant at) {}

    private static void started(JobContext context) {
        STARTED.put(context.executionId(), new Started(context.nodeId(), Instant.now()));
    }

    @Bean
    Handlers noticeHandlers() {
        return new Handlers();
    }

    /** The jobs. */
    public static class Handlers {

        @JobHandler("note")
        public void note(JobContext context) {
            started(context);
        }

        @JobHandler(value = "flaky", retry = @Retry(maxRetries = 0))
        public void flaky(JobContext context) {
            started(context);
            if (failing) {
                throw new IllegalStateException("fails until told not to");
            }
        }

        @DistributedScheduled(name = "yearly", cron = "0 0 0 1 1 *")
        public void yearly(JobContext context) {
            started(context);
        }
    }
}
