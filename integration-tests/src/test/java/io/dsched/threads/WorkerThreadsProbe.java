package io.dsched.threads;

import io.dsched.annotation.DistributedScheduled;
import io.dsched.annotation.JobHandler;
import io.dsched.execution.JobContext;
import io.dsched.jobs.JobScheduler;
import io.dsched.jobs.OneOff;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A node of its own, run in a JVM of its own by {@link WorkerThreadsTests}: it runs a fire of a
 * scheduled job and a one-off, then prints on which thread each ran, one line each
 * ({@code ran fire on virtual=true dsched-worker-1}) and ends. Its database is H2 in memory: the
 * kind of thread does not depend on the database.
 */
@Configuration(proxyBeanMethods = false)
@EnableAutoConfiguration
public class WorkerThreadsProbe {

    /** The line before each of the probe's answers. */
    static final String RAN = "ran ";

    private static final Map<String, Thread> THREADS = new ConcurrentHashMap<>();

    private static final CountDownLatch BOTH = new CountDownLatch(2);

    /**
     * Runs the probe.
     * @param args {@code spring.threads.virtual.enabled}: {@code true} or {@code false}
     */
    public static void main(String[] args) {
        try {
            probe(args[0]);
        } catch (Exception | Error ex) {
            ex.printStackTrace();
            System.exit(1);
        }
        System.exit(0);
    }

    private static void probe(String virtual) throws Exception {
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(WorkerThreadsProbe.class)
                .web(WebApplicationType.NONE)
                .properties(
                        "spring.threads.virtual.enabled=" + virtual,
                        "spring.datasource.url=jdbc:h2:mem:probe;DB_CLOSE_DELAY=-1;DB_CLOSE_ON_EXIT=FALSE",
                        "dsched.queue.poll-interval=200ms",
                        "spring.main.banner-mode=off")
                .run()) {
            context.getBean(JobScheduler.class).submit(OneOff.of("note", null));
            if (!BOTH.await(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("Not both ran within 60 s: " + THREADS.keySet());
            }
            THREADS.forEach((kind, thread) ->
                    System.out.println(RAN + kind + " on virtual=" + isVirtual(thread) + " " + thread.getName()));
        }
    }

    /** Whether a thread is virtual, read by reflection: the tests compile for Java 17. */
    static boolean isVirtual(Thread thread) {
        try {
            return (Boolean) Thread.class.getMethod("isVirtual").invoke(thread);
        } catch (NoSuchMethodException ex) {
            return false;
        } catch (ReflectiveOperationException ex) {
            throw new IllegalStateException(ex);
        }
    }

    private static void ran(String kind) {
        if (THREADS.putIfAbsent(kind, Thread.currentThread()) == null) {
            BOTH.countDown();
        }
    }

    @Bean
    Jobs workerThreadsJobs() {
        return new Jobs();
    }

    /** A scheduled job that fires every second, and a one-off handler. */
    public static class Jobs {

        @DistributedScheduled(name = "tick", cron = "* * * * * *")
        public void tick(JobContext context) {
            ran("fire");
        }

        @JobHandler("note")
        public void note(JobContext context) {
            ran("one-off");
        }
    }
}
