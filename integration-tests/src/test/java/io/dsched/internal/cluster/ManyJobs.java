package io.dsched.internal.cluster;

import io.dsched.annotation.JobHandler;
import io.dsched.execution.JobContext;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * An application with one handler that many recurring jobs, defined at run time, fire at once.
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
public class ManyJobs {

    static final Map<String, Set<Instant>> fires = new ConcurrentHashMap<>();

    @Bean
    Handlers handlers() {
        return new Handlers();
    }

    /** The handler. */
    public static class Handlers {

        @JobHandler("beat")
        public void beat(JobContext context) {
            fires.computeIfAbsent(context.jobName(), (job) -> ConcurrentHashMap.newKeySet())
                    .add(context.scheduledAt());
        }
    }
}
