package io.dsched.sample;

import java.util.List;
import org.springframework.context.ConfigurableApplicationContext;
import sun.misc.Signal;

/**
 * Stops the application when the JVM is asked to stop (SIGTERM, as from {@code kill} or a container
 * runtime, and Ctrl-C), before the JVM's exit begins rather than in Spring's shutdown hook. H2 closes
 * its database in a shutdown hook of its own, which runs beside Spring's, so that dsched's last
 * writes as it stops (the fires it acquired put back, its node's row removed) met a closed database
 * and were logged as warnings and errors; its auto-server, which the sample's cluster on one machine
 * needs, refuses {@code DB_CLOSE_ON_EXIT=FALSE}. Here the application stops with its database open,
 * and the JVM exits after, with the status the signal would have given it.
 */
final class StopOnSignal {

    private StopOnSignal() {}

    /**
     * Stops the context, then the JVM, at SIGTERM or SIGINT.
     * @param context the application's context
     */
    static void install(ConfigurableApplicationContext context) {
        for (String name : List.of("TERM", "INT")) {
            try {
                Signal.handle(new Signal(name), (signal) -> {
                    // the JVM's signal thread has no context class loader, which Quartz's JDBC proxies need
                    Thread.currentThread().setContextClassLoader(context.getClassLoader());
                    context.close();
                    System.exit(128 + signal.getNumber());
                });
            } catch (IllegalArgumentException ex) {
                // a platform without this signal: Spring's shutdown hook stops the application
            }
        }
    }
}
