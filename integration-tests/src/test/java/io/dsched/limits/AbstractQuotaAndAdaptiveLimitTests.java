package io.dsched.limits;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.dsched.execution.ExecutionRecord;
import io.dsched.execution.ExecutionStatus;
import io.dsched.internal.handler.HandlerRegistry;
import io.dsched.internal.management.LimitCommands;
import io.dsched.internal.management.views.Limit;
import io.dsched.internal.store.ExecutionStore;
import io.dsched.jobs.JobScheduler;
import io.dsched.jobs.OneOff;
import io.dsched.test.ClusterNode;
import io.dsched.test.TestCluster;
import io.dsched.test.TestDatabases;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Quotas and adaptive concurrency limits, cluster-wide, on three nodes of ten workers: a quota lets
 * its permits start at once and holds the rest to its next window, window after window, and an
 * admin changes it at run time; an adaptive limit halves as failures (or a load signal) come and
 * climbs back when they stop. Run against each database by a small subclass.
 */
abstract class AbstractQuotaAndAdaptiveLimitTests {

    private static final Duration POLL = Duration.ofMillis(200);

    private static final Map<String, Object> PROPERTIES = Map.of(
            "dsched.threads", "10",
            "dsched.metrics.refresh", "0s",
            "dsched.queue.poll-interval", POLL.toMillis() + "ms");

    @RegisterExtension
    final TestCluster cluster = TestCluster.of(this::kind);

    /**
     * Returns the database this suite runs on.
     * @return the kind of database
     */
    protected abstract TestDatabases.Kind kind();

    @BeforeEach
    void reset() {
        QuotaJobs.reset();
    }

    @Test
    void aQuotaLetsItsPermitsStartAtOnceHoldsTheRestAndIsRaisedAtRunTime() {
        List<ClusterNode> nodes = List.of(start("quota-1"), start("quota-2"), start("quota-3"));
        submit(nodes.get(0), "quoted", 100);

        // not smoothed: the window's 20 start together, then none until the window ends (a window of
        // 100 days, which the test does not see end)
        await().atMost(Duration.ofSeconds(10))
                .until(() -> QuotaJobs.starts("quoted").size() == 20);
        List<QuotaJobs.Claim> claims = QuotaJobs.claims("quoted");
        assertThat(Duration.between(claims.get(0).at(), claims.get(19).at())).isLessThan(Duration.ofSeconds(3));
        await().during(POLL.multipliedBy(8))
                .atMost(Duration.ofSeconds(4))
                .until(() -> QuotaJobs.starts("quoted").size() == 20);
        LimitCommands limits = limits(nodes.get(1));
        Limit quoted = limit(limits, "quoted");
        assertThat(quoted.quota()).isEqualTo("20/100d");
        assertThat(quoted.quotaUsed()).isEqualTo(20);
        assertThat(quoted.waiting()).isEqualTo(80);
        assertThat(quoted.waitingForQuota()).isEqualTo(80);
        assertThat(quoted.waitingForSlot() + quoted.waitingForToken()).isZero();
        ExecutionRecord waiting = nodes.get(0).bean(ExecutionStore.class).repository().findByJobName("quoted").stream()
                .filter((attempt) -> attempt.status() == ExecutionStatus.SCHEDULED)
                .findFirst()
                .orElseThrow();
        assertThat(limits.whyWaiting(waiting)).hasValueSatisfying((why) -> assertThat(why)
                .startsWith("the quota's next window: 20 of 20/100d claimed"));

        // raised through one node: the others claim by it, up to the new quota, and hold the rest
        limits.set("quoted", null, null, "45/100d", null, "test");
        await().atMost(Duration.ofSeconds(10))
                .until(() -> QuotaJobs.starts("quoted").size() == 45);
        await().during(POLL.multipliedBy(8))
                .atMost(Duration.ofSeconds(4))
                .until(() -> QuotaJobs.starts("quoted").size() == 45);
        assertThat(limit(limits, "quoted").quotaUsed()).isEqualTo(45);
        assertThat(limit(limits, "quoted").waitingForQuota()).isEqualTo(55);

        // a quota of another period counts anew: a day's 25, then 5 of a window of 100 days again
        limits.set("quoted", null, null, "25/1d", null, "test");
        await().atMost(Duration.ofSeconds(10))
                .until(() -> QuotaJobs.starts("quoted").size() == 70);
        limits.set("quoted", null, null, "5/100d", null, "test");
        await().atMost(Duration.ofSeconds(10))
                .until(() -> QuotaJobs.starts("quoted").size() == 75);
        await().during(POLL.multipliedBy(8))
                .atMost(Duration.ofSeconds(4))
                .until(() -> QuotaJobs.starts("quoted").size() == 75);
    }

    @Test
    void aQuotaCountsEachWindowOfItsPeriodApart() {
        List<ClusterNode> nodes = List.of(start("windows-1"), start("windows-2"), start("windows-3"));
        submit(nodes.get(0), "windowed", 90);

        await().atMost(Duration.ofSeconds(30))
                .until(() -> QuotaJobs.starts("windowed").size() == 90);
        // the claims by the windows of 2 s from the epoch they fall in, as the quota counts them
        Map<Long, Integer> byWindow = new TreeMap<>();
        List<Instant> claimed =
                QuotaJobs.claims("windowed").stream().map(QuotaJobs.Claim::at).toList();
        for (Instant at : claimed) {
            byWindow.merge(Math.floorDiv(at.toEpochMilli(), 2000L), 1, Integer::sum);
        }
        assertThat(claimed).hasSize(90);
        assertThat(byWindow.values()).as("claims in each window").allSatisfy((n) -> assertThat(n)
                .isBetween(1, 30));
        // 30 a window: three windows, or four when the first began too late in its window for all 30
        assertThat(byWindow).hasSizeBetween(3, 4);
        assertThat(Duration.between(claimed.get(0), claimed.get(89))).isGreaterThan(Duration.ofSeconds(2));
    }

    /** A node-local rate, then a rate of each key, on one cluster of three nodes. */
    @Test
    void aNodeRateBoundsEachNodesClaimsAndARateOfEachKeyEachTenants() {
        List<ClusterNode> nodes = List.of(start("rates-1"), start("rates-2"), start("rates-3"));
        aNodeRateBoundsTheStartsOfEachNodeAndTheClusterStartsThatManyOnEachNode(nodes);
        aRateOfEachKeyHoldsForEachTenantAcrossTheClusterAndTheTenantsGoOnSideBySide(nodes);
    }

    private void aNodeRateBoundsTheStartsOfEachNodeAndTheClusterStartsThatManyOnEachNode(List<ClusterNode> nodes) {
        submit(nodes.get(0), "noded", 240);

        await().atMost(Duration.ofSeconds(30))
                .until(() -> QuotaJobs.starts("noded").size() == 240);
        // the claims of each node, as its bucket counts them
        Map<String, List<Instant>> byNode = new TreeMap<>();
        List<Instant> all = new ArrayList<>();
        for (QuotaJobs.Claim claim : QuotaJobs.claims("noded")) {
            byNode.computeIfAbsent(claim.node(), (node) -> new ArrayList<>()).add(claim.at());
            all.add(claim.at());
        }
        assertThat(all).hasSize(240);
        assertThat(byNode).hasSize(3);
        // a full bucket of 20 and 20 more in a second, on each node; the claims are stamped by the node's
        // estimate of the database's clock, the bucket counts by its monotonic clock: one more may fall
        // in a second of stamps when the estimate is measured again
        assertThat(byNode.values()).allSatisfy((claims) -> assertThat(Seconds.mostInASecond(claims))
                .isLessThanOrEqualTo(41));
        assertThat(Seconds.mostInASecond(all))
                .as("the rate is each node's: the cluster starts more than one node's in a second")
                .isGreaterThan(40);
        // 60 at once, then 60 a second: 3 s for the other 180
        assertThat(Duration.between(all.get(0), all.get(239)))
                .isBetween(Duration.ofMillis(2500), Duration.ofSeconds(6));
    }

    private void aRateOfEachKeyHoldsForEachTenantAcrossTheClusterAndTheTenantsGoOnSideBySide(List<ClusterNode> nodes) {
        List<OneOff> oneOffs = new ArrayList<>();
        for (int i = 0; i < 120; i++) {
            oneOffs.add(OneOff.of("keyed", new QuotaJobs.Tenant("tenant-" + (i % 3), i)));
        }
        nodes.get(0).bean(JobScheduler.class).submitAll(oneOffs);

        await().atMost(Duration.ofSeconds(30))
                .until(() -> QuotaJobs.starts("keyed").size() == 120);
        Map<String, List<Instant>> byTenant = new TreeMap<>();
        List<Instant> all = new ArrayList<>();
        for (QuotaJobs.Claim claim : QuotaJobs.claims("keyed")) {
            byTenant.computeIfAbsent(claim.key(), (key) -> new ArrayList<>()).add(claim.at());
            all.add(claim.at());
        }
        assertThat(byTenant).hasSize(3);
        // a full bucket of 10 and 10 more in a second, for each tenant, on whichever nodes
        assertThat(byTenant.values()).allSatisfy((claims) -> {
            assertThat(claims).hasSize(40);
            assertThat(Seconds.mostInASecond(claims)).isLessThanOrEqualTo(20);
            // 10 at once, then 10 a second: 3 s for the other 30
            assertThat(Duration.between(claims.get(0), claims.get(39))).isGreaterThan(Duration.ofMillis(2500));
        });
        assertThat(Seconds.mostInASecond(all))
                .as("each tenant's own rate, side by side")
                .isGreaterThan(20);
    }

    /** An adaptive limit under failures, then another under a load signal, on one cluster of three nodes. */
    @Test
    void anAdaptiveLimitFollowsFailuresAndALoadSignalDownAndBackUp() {
        List<ClusterNode> nodes = List.of(start("adaptive-1"), start("adaptive-2"), start("adaptive-3"));
        anAdaptiveLimitIsHalvedWhileFailuresComeAndClimbsBackWhenTheyStop(nodes);
        aLoadSignalLowersAnAdaptiveLimitWithoutFailuresAndItClimbsBackOnceQuiet(nodes);
    }

    private void anAdaptiveLimitIsHalvedWhileFailuresComeAndClimbsBackWhenTheyStop(List<ClusterNode> nodes) {
        submit(nodes.get(0), "adaptive", 1000);
        LimitCommands limits = limits(nodes.get(2));
        await().atMost(Duration.ofSeconds(20)).until(() -> QuotaJobs.most("adaptive") == 8);

        QuotaJobs.down = true;
        // 8, 4, 2, 1: a window of 500 ms each, once at least 4 outcomes in one failed
        await().atMost(Duration.ofSeconds(15)).until(() -> adapted(limits, "adaptive") == 1);
        await().atMost(Duration.ofSeconds(5)).until(() -> QuotaJobs.running("adaptive") <= 1);
        QuotaJobs.forgetMost("adaptive");
        int before = QuotaJobs.starts("adaptive").size();
        await().atMost(Duration.ofSeconds(15))
                .until(() -> QuotaJobs.starts("adaptive").size() >= before + 10);
        assertThat(QuotaJobs.most("adaptive"))
                .as("most runs at once at the lowered limit")
                .isEqualTo(1);

        QuotaJobs.down = false;
        // up by one a window of successes
        await().atMost(Duration.ofSeconds(20)).until(() -> adapted(limits, "adaptive") == 8);
        await().atMost(Duration.ofSeconds(10)).until(() -> QuotaJobs.most("adaptive") > 4);
        assertThat(QuotaJobs.most("adaptive")).isLessThanOrEqualTo(8);
    }

    private void aLoadSignalLowersAnAdaptiveLimitWithoutFailuresAndItClimbsBackOnceQuiet(List<ClusterNode> nodes) {
        submit(nodes.get(0), "signalled", 1000);
        LimitCommands limits = limits(nodes.get(0));
        await().atMost(Duration.ofSeconds(20)).until(() -> QuotaJobs.most("signalled") == 6);

        QuotaJobs.overloaded = true;
        // 6, 3, then its least, 2
        await().atMost(Duration.ofSeconds(15)).until(() -> adapted(limits, "signalled") == 2);
        await().atMost(Duration.ofSeconds(5)).until(() -> QuotaJobs.running("signalled") <= 2);
        QuotaJobs.forgetMost("signalled");
        int before = QuotaJobs.starts("signalled").size();
        await().atMost(Duration.ofSeconds(15))
                .until(() -> QuotaJobs.starts("signalled").size() >= before + 20);
        assertThat(QuotaJobs.most("signalled"))
                .as("most runs at once at the lowered limit")
                .isEqualTo(2);

        QuotaJobs.overloaded = false;
        await().atMost(Duration.ofSeconds(20)).until(() -> adapted(limits, "signalled") == 6);
    }

    private static int adapted(LimitCommands limits, String handler) {
        Integer adapted = limit(limits, handler).adaptedMaxConcurrent();
        return (adapted != null) ? adapted : -1;
    }

    private static Limit limit(LimitCommands limits, String handler) {
        return limits.limits().stream()
                .filter((limit) -> limit.name().equals(handler))
                .findFirst()
                .orElseThrow();
    }

    private static void submit(ClusterNode node, String handler, int count) {
        List<OneOff> oneOffs = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            oneOffs.add(OneOff.of(handler, null).withKey(handler + "-" + i));
        }
        node.bean(JobScheduler.class).submitAll(oneOffs);
    }

    private static LimitCommands limits(ClusterNode node) {
        return new LimitCommands(
                node.bean(HandlerRegistry.class),
                node.bean(ExecutionStore.class).limits(),
                Clock.systemUTC());
    }

    private ClusterNode start(String id) {
        return this.cluster.start(id, QuotaJobs.class, new HashMap<>(PROPERTIES));
    }
}
