package io.dsched.shutdown;

import io.dsched.annotation.DistributedScheduled;
import io.dsched.execution.JobContext;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The application of the shutdown tests: a job that fires every second and one that runs when
 * triggered; both work until the test lets them finish.
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
public class ShutdownJobs {

    // new ones for each test: a run an earlier test left behind records into that test's lists
    static volatile List<String> started = new CopyOnWriteArrayList<>();

    static volatile List<String> finished = new CopyOnWriteArrayList<>();

    static volatile CountDownLatch release = new CountDownLatch(1);

    static void reset() {
        started = new CopyOnWriteArrayList<>();
        finished = new CopyOnWriteArrayList<>();
        release = new CountDownLatch(1);
    }

    @Bean
    Jobs jobs() {
        return new Jobs();
    }

    /** The jobs. */
    public static class Jobs {

        @DistributedScheduled(name = "busy", cron = "${test.busy.cron:* * * * * *}", lockAtMostFor = "1m")
        public void busy(JobContext context) throws InterruptedException {
            List<String> finishing = finished;
            CountDownLatch released = release;
            started.add(context.idempotencyKey());
            if (released.await(1, TimeUnit.MINUTES)) {
                finishing.add(context.idempotencyKey());
            }
        }

        @DistributedScheduled(name = "triggered", cron = "0 0 0 1 1 *")
        public void triggered(JobContext context) throws InterruptedException {
            busy(context);
        }
    }
}
