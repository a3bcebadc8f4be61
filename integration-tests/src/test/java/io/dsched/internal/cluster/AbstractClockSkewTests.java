package io.dsched.internal.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import io.dsched.internal.health.DschedHealthIndicator;
import io.dsched.internal.management.ClusterViews;
import io.dsched.internal.management.views.Node;
import io.dsched.internal.store.ClusterTables;
import io.dsched.test.ClusterNode;
import io.dsched.test.ShiftedClock;
import io.dsched.test.TestCluster;
import io.dsched.test.TestDatabases;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Clock skew with an injected clock: a node whose clock (the one dsched measures, see
 * {@link ClockJobs}) runs 30 s ahead measures and reports the offset, takes no fires while skewed,
 * and takes them again once its clock is back; Quartz's check-in does not fail a live node whose
 * check-in time, written with its own clock, looks old. Run against each database by a small
 * subclass; the real JVM under libfaketime is the sample's {@code ClockSkewIT}.
 */
abstract class AbstractClockSkewTests {

    private static final Duration AHEAD = Duration.ofSeconds(30);

    private static final Map<String, Object> FAST = Map.of(
            "dsched.recovery.heartbeat-interval", "200ms",
            "dsched.recovery.node-timeout", "2s",
            "dsched.cluster.checkin-interval", "1s",
            "management.endpoints.web.exposure.include", "dsched");

    @RegisterExtension
    final TestCluster cluster = TestCluster.of(this::kind);

    protected abstract TestDatabases.Kind kind();

    @BeforeEach
    void resetJobs() {
        TestJobs.reset();
    }

    @Test
    void aNodeMeasuresItsClockAtEveryHeartbeatAndReportsItSkewedUntilItIsBack() {
        ClusterNode node = this.cluster.start("node-1", ClockJobs.class, with(FAST, "test.clock.shift", "30s"));
        ClockSkew skew = node.bean(ClockSkew.class);

        assertThat(skew.isSkewed()).isTrue();
        assertThat(seconds(skew.offset())).isCloseTo(30.0, within(1.0));
        Health health = node.bean(DschedHealthIndicator.class).health(true);
        assertThat(health.getStatus()).isEqualTo(Status.UP);
        assertThat(health.getDetails()).containsEntry("clockSkewed", true);
        assertThat((Double) health.getDetails().get("clockOffsetSeconds")).isCloseTo(30.0, within(1.0));
        assertThat((String) health.getDetails().get("clockSkew")).contains("ahead of the database's");
        Node shown = await().atMost(Duration.ofSeconds(10))
                .until(() -> self(node), (self) -> self.clockOffsetSeconds() != null);
        assertThat(shown.clockSkewed()).isTrue();
        assertThat(shown.clockOffsetSeconds()).isCloseTo(30.0, within(1.0));
        assertThat(offsetGauge(node)).isCloseTo(30.0, within(1.0));
        assertThat(node.bean(MeterRegistry.class)
                        .get("dsched.node.clock.skewed")
                        .gauge()
                        .value())
                .isEqualTo(1.0);
        // database time, as the node knows it, is the database's and not its own clock's
        Instant databaseNow =
                new NodeTable(this.cluster.observer(), this.cluster.platform(), ClusterTables.DEFAULT).databaseNow();
        assertThat(Duration.between(databaseNow, node.bean(DatabaseClock.class).instant())
                        .abs())
                .isLessThan(Duration.ofSeconds(1));

        node.bean(ShiftedClock.class).shift(Duration.ZERO);

        await().atMost(Duration.ofSeconds(10)).until(() -> !skew.isSkewed());
        assertThat(seconds(skew.offset())).isCloseTo(0.0, within(1.0));
        await().atMost(Duration.ofSeconds(10)).until(() -> !self(node).clockSkewed());
        assertThat(node.bean(DschedHealthIndicator.class).health(true).getDetails())
                .containsEntry("clockSkewed", false)
                .doesNotContainKey("clockSkew");
        assertThat(offsetGauge(node)).isCloseTo(0.0, within(1.0));
    }

    @Test
    void aSkewedNodeTakesNoFiresTheOthersTakeThemAndOnceItsClockIsBackItFiresAgain() {
        Map<String, Object> tick = with(FAST, "test.tick.cron", "* * * * * *");
        ClusterNode steady = this.cluster.start("node-1", ClockJobs.class, tick);
        ClusterNode skewed = this.cluster.start("node-2", ClockJobs.class, with(tick, "test.clock.shift", "30s"));
        assertThat(skewed.bean(ClockSkew.class).isSkewed()).isTrue();
        Instant from = Instant.now().plusSeconds(1);

        await().atMost(Duration.ofSeconds(20)).until(() -> firedSince(from) >= 6);
        assertThat(nodesThatFired(from)).containsOnlyKeys("node-1");
        // each second fired once, with none left out
        TreeMap<Instant, List<String>> fires = new TreeMap<>(TestJobs.invocations("tick"));
        NavigableMap<Instant, List<String>> shared = fires.subMap(fires.ceilingKey(from), true, fires.lastKey(), true);
        assertThat(shared)
                .hasSize((int) Duration.between(shared.firstKey(), shared.lastKey())
                                .toSeconds()
                        + 1);

        // alone, the skewed node fires nothing; the fires the steady node had claimed ahead of their
        // time (at most its idle wait plus twice the fire-ahead lead, 3 s) are left to any node's
        // queue as it stops, and run there, the skewed node's too
        steady.close();
        Instant alone = Instant.now().plusSeconds(3);
        await().during(Duration.ofSeconds(6)).atMost(Duration.ofSeconds(8)).until(() -> nodesThatFired(alone)
                .isEmpty());

        skewed.bean(ShiftedClock.class).shift(Duration.ZERO);
        await().atMost(Duration.ofSeconds(10))
                .until(() -> !skewed.bean(ClockSkew.class).isSkewed());
        Instant back = Instant.now();
        await().atMost(Duration.ofSeconds(20)).until(() -> nodesThatFired(back).getOrDefault("node-2", 0) >= 3);
        TestJobs.invocations("tick").values().forEach((nodes) -> assertThat(nodes)
                .hasSize(1));
    }

    @Test
    void quartzFailsNoLiveNodeWhoseCheckInLooksOldAndFailsADeadOneWhoseCheckInLooksNew() {
        ClusterNode judge = this.cluster.start("node-1", ClockJobs.class, FAST);
        // node-2 checks in with Quartz once, at its start, and keeps its heartbeats in dsched_node
        this.cluster.start("node-2", ClockJobs.class, with(FAST, "dsched.cluster.checkin-interval", "10m"));
        JdbcTemplate jdbc = new JdbcTemplate(this.cluster.observer());
        await().atMost(Duration.ofSeconds(20)).until(() -> checkIn(jdbc, "node-2") != null);
        await().atMost(Duration.ofSeconds(20))
                .until(() -> judge.bean(ClusterMembership.class).judgesOthers());
        // as a node whose clock is a minute behind writes it
        jdbc.update(
                "UPDATE DSCHED_QRTZ_SCHEDULER_STATE SET LAST_CHECKIN_TIME = ?, CHECKIN_INTERVAL = 1000"
                        + " WHERE INSTANCE_NAME = 'node-2'",
                System.currentTimeMillis() - 60_000);
        long judgedBefore = checkIn(jdbc, "node-1");

        await().during(Duration.ofSeconds(4))
                .atMost(Duration.ofSeconds(6))
                .until(() -> checkIn(jdbc, "node-2") != null);
        assertThat(checkIn(jdbc, "node-1")).isGreaterThan(judgedBefore + 2000);

        // as a node whose clock is ten minutes ahead writes it: stock Quartz would wait ten minutes
        jdbc.update(
                "UPDATE DSCHED_QRTZ_SCHEDULER_STATE SET LAST_CHECKIN_TIME = ? WHERE INSTANCE_NAME = 'node-2'",
                System.currentTimeMillis() + 600_000);
        this.cluster.nodes().get(1).close();
        await().atMost(Duration.ofSeconds(15)).until(() -> checkIn(jdbc, "node-2") == null);
    }

    private static Long checkIn(JdbcTemplate jdbc, String node) {
        List<Long> times = jdbc.queryForList(
                "SELECT LAST_CHECKIN_TIME FROM DSCHED_QRTZ_SCHEDULER_STATE WHERE INSTANCE_NAME = ?", Long.class, node);
        return times.isEmpty() ? null : times.get(0);
    }

    private static long firedSince(Instant from) {
        return TestJobs.invocations("tick").keySet().stream()
                .filter((at) -> !at.isBefore(from))
                .count();
    }

    private static Map<String, Integer> nodesThatFired(Instant from) {
        Map<String, Integer> byNode = new HashMap<>();
        TestJobs.invocations("tick").forEach((at, nodes) -> {
            if (!at.isBefore(from)) {
                nodes.forEach((node) -> byNode.merge(node, 1, Integer::sum));
            }
        });
        return byNode;
    }

    private static Node self(ClusterNode node) {
        return node.bean(ClusterViews.class).overview(Duration.ofMinutes(1)).nodes().stream()
                .filter(Node::self)
                .findFirst()
                .orElseThrow();
    }

    private static double offsetGauge(ClusterNode node) {
        return node.bean(MeterRegistry.class)
                .get("dsched.node.clock.offset")
                .gauge()
                .value();
    }

    private static double seconds(Duration duration) {
        return duration.toMillis() / 1000.0;
    }

    private static Map<String, Object> with(Map<String, Object> properties, String key, Object value) {
        Map<String, Object> all = new HashMap<>(properties);
        all.put(key, value);
        return all;
    }
}
