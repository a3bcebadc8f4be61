package io.dsched.internal.cluster;

import io.dsched.test.ShiftedClock;
import java.time.Clock;
import java.time.Duration;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/**
 * The cluster tests' application on a node whose clock runs {@code test.clock.shift} ahead of the
 * system's: dsched measures that clock against the database's. Quartz, which reads the system clock
 * itself, is not shifted; what the tests check is dsched's rule, with the clock it measures.
 */
@Configuration(proxyBeanMethods = false)
@Import(TestJobs.class)
public class ClockJobs {

    @Bean
    ShiftedClock shiftedClock(@Value("${test.clock.shift:0s}") Duration shift) {
        return new ShiftedClock(Clock.systemUTC(), shift);
    }

    @Bean
    DatabaseClock testDatabaseClock(ShiftedClock clock) {
        return new DatabaseClock(clock);
    }
}
