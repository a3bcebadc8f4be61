package io.dsched.sample;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * An order-processing service that settles orders with {@code @DistributedScheduled} jobs. Start two
 * instances over one database and every fire runs on only one of them.
 */
@SpringBootApplication
public class SampleApplication {

    /**
     * Starts the application.
     * @param args command line arguments
     */
    public static void main(String[] args) {
        StopOnSignal.install(SpringApplication.run(SampleApplication.class, args));
    }
}
