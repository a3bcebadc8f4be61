package io.dsched.reliability;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.ExecutionStatus;
import io.dsched.internal.store.ExecutionRepository;
import io.dsched.reliability.ReliabilityJobs.Invocation;
import io.dsched.test.TestCluster;
import io.dsched.test.TestDatabase;
import io.dsched.test.TestDatabases;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The database goes away while the cluster runs: every connection of every node is cut, over and
 * over, for several seconds. Afterwards no fire is lost and none ran twice.
 */
abstract class AbstractDatabaseOutageTests {

    /** The start of the application name the nodes' connections carry, so that only they are cut. */
    static final String APPLICATION = "dsched-outage";

    private static final Logger logger = LoggerFactory.getLogger(AbstractDatabaseOutageTests.class);

    @RegisterExtension
    final TestCluster cluster = TestCluster.of(this::kind);

    protected abstract TestDatabases.Kind kind();

    /**
     * Cuts every connection the nodes hold.
     * @param admin a DataSource on the same database, not cut itself
     * @param database the test database
     * @return how many connections were cut
     */
    protected abstract int cutNodeConnections(DataSource admin, TestDatabase database);

    /**
     * Returns the properties that tag the nodes' connections.
     * @return Spring Boot properties
     */
    protected abstract Map<String, Object> tagConnections();

    @BeforeEach
    void resetJobs() {
        ReliabilityJobs.reset();
    }

    @Test
    void noFireIsLostAndNoneRunsTwiceWhenTheDatabaseGoesAwayForAWhile() {
        Map<String, Object> properties = new LinkedHashMap<>(tagConnections());
        properties.put("test.beat.cron", "* * * * * *");
        properties.put("dsched.queue.poll-interval", "100ms");
        properties.put("dsched.recovery.heartbeat-interval", "250ms");
        // the default: longer than the outage plus the time the pools take to reconnect, so that no
        // node is presumed dead for it (a node presumed dead has its running fire run again, which
        // is at-least-once, not the exactly-once this test asserts)
        properties.put("dsched.recovery.node-timeout", "10s");
        properties.put("spring.datasource.hikari.connection-timeout", "1000");
        for (int i = 1; i <= 3; i++) {
            this.cluster.start("node-" + i, ReliabilityJobs.class, properties);
        }
        ExecutionRepository executions = this.cluster.executions();
        await().atMost(Duration.ofSeconds(20))
                .until(() -> ReliabilityJobs.invocations("beat").size() >= 3);
        Instant from = ReliabilityJobs.invocations("beat").get(0).scheduledAt();

        Instant outageStart = Instant.now();
        int[] cut = {0};
        await().during(Duration.ofSeconds(6))
                .atMost(Duration.ofSeconds(8))
                .pollInterval(Duration.ofMillis(200))
                .until(() -> {
                    cut[0] += cutNodeConnections(this.cluster.observer(), this.cluster.database());
                    return true;
                });
        Instant outageEnd = Instant.now();
        Instant to = outageEnd.truncatedTo(ChronoUnit.SECONDS).plusSeconds(5);

        await().atMost(Duration.ofSeconds(60)).until(() -> {
            List<ExecutionRecord> window = executions.findByJobNameBetween("beat", from, to);
            return window.stream().map(ExecutionRecord::scheduledAt).distinct().count()
                            == Duration.between(from, to).toSeconds()
                    && window.stream()
                            .allMatch((run) -> run.status().isTerminal() || run.status() == ExecutionStatus.FAILED);
        });

        List<ExecutionRecord> window = executions.findByJobNameBetween("beat", from, to);
        Map<Instant, List<Invocation>> invocations = ReliabilityJobs.invocations("beat").stream()
                .filter((run) ->
                        !run.scheduledAt().isBefore(from) && run.scheduledAt().isBefore(to))
                .collect(Collectors.groupingBy(Invocation::scheduledAt));
        Map<Instant, Long> succeeded = window.stream()
                .filter((run) -> run.status() == ExecutionStatus.SUCCEEDED)
                .collect(Collectors.groupingBy(ExecutionRecord::scheduledAt, Collectors.counting()));
        logger.info(
                "{}: cut {} connections between {} and {}; {} fires in [{}, {}), {} attempts, {} invocations",
                kind(),
                cut[0],
                outageStart,
                outageEnd,
                succeeded.size(),
                from,
                to,
                window.size(),
                invocations.values().stream().mapToInt(List::size).sum());
        assertThat(cut[0]).isPositive();
        for (Instant second = from; second.isBefore(to); second = second.plusSeconds(1)) {
            assertThat(succeeded.get(second))
                    .as("successes of the fire at %s", second)
                    .isEqualTo(1L);
            assertThat(invocations.get(second))
                    .as("invocations of the fire at %s", second)
                    .hasSize(1);
        }
    }
}
