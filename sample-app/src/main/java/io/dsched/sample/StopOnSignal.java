package io.dsched.sample;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ConfigurableApplicationContext;
import sun.misc.Signal;

/**
 * Stops the application when the JVM is asked to stop (SIGTERM, as from {@code kill} or a container
 * runtime, SIGINT from Ctrl-C, SIGHUP from a closed terminal), before the JVM's exit begins rather
 * than in Spring's shutdown hook. H2 closes its database in a shutdown hook of its own, which runs
 * beside Spring's, so that dsched's last writes as it stops (the fires it acquired put back, its
 * node's row removed) met a closed database and were logged as warnings and errors; its
 * auto-server, which the sample's cluster on one machine needs, refuses
 * {@code DB_CLOSE_ON_EXIT=FALSE}. Here the application stops with its database open, and the JVM
 * exits after, with the status the signal would have given it.
 */
final class StopOnSignal {

    private static final Logger logger = LoggerFactory.getLogger(StopOnSignal.class);

    private StopOnSignal() {}

    /**
     * Stops the context, then the JVM, at the first SIGTERM, SIGINT or SIGHUP; later ones wait for
     * that stop.
     * @param context the application's context
     */
    static void install(ConfigurableApplicationContext context) {
        AtomicBoolean stopping = new AtomicBoolean();
        for (String name : List.of("TERM", "INT", "HUP")) {
            try {
                Signal.handle(new Signal(name), (signal) -> {
                    if (!stopping.compareAndSet(false, true)) {
                        logger.info("SIG{} while the application stops: it goes on stopping", signal.getName());
                        return;
                    }
                    // not the signal's own thread, a daemon: the JVM would begin to exit, and H2 to
                    // close, as soon as the application's last other thread ended; and with the
                    // application's class loader, which Quartz's JDBC proxies need
                    Thread stop = new Thread(
                            () -> {
                                try {
                                    context.close();
                                } finally {
                                    System.exit(128 + signal.getNumber());
                                }
                            },
                            "stop-on-SIG" + signal.getName());
                    stop.setDaemon(false);
                    stop.setContextClassLoader(context.getClassLoader());
                    stop.start();
                });
            } catch (IllegalArgumentException ex) {
                // a platform without this signal, or a JVM started with -Xrs: Spring's shutdown hook
                // stops the application
            }
        }
    }
}
