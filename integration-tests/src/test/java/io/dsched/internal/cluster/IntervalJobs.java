package io.dsched.internal.cluster;

import io.dsched.annotation.DistributedScheduled;
import io.dsched.execution.JobContext;
import java.time.Duration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * An application with a fixed-rate and a fixed-delay job, for the cluster tests.
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
public class IntervalJobs {

    @Bean
    Jobs jobs() {
        return new Jobs();
    }

    /** The jobs. */
    public static class Jobs {

        @DistributedScheduled(name = "rate", fixedRate = "1s", initialDelay = "1s")
        public void rate(JobContext context) {
            TestJobs.record(context);
        }

        @DistributedScheduled(name = "delay", fixedDelay = "700ms")
        public void delay(JobContext context) throws InterruptedException {
            // the work of the job, which the delay is measured from the end of
            TestJobs.work(context, Duration.ofMillis(300));
        }
    }
}
