package io.dsched.internal.execution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WorkerPoolsTests {

    private final JobTargets declared = Fixtures.targets(
            Fixtures.inGroup("report", "reports"),
            Fixtures.inGroup("invoice", "billing"),
            Fixtures.inGroup("tick", NodeGroups.DEFAULT),
            Fixtures.inGroup("housekeeping", NodeGroups.ANY));

    @Test
    void aGroupWithThreadsOfItsOwnRunsInItsPoolAndTheOtherServedGroupsAndDschedsOwnJobsShareOne() {
        WorkerPools pools = new WorkerPools(new NodeGroups(List.of("reports", "default")), 10, Map.of("reports", 4));

        List<WorkerPools.Pool> all = pools.pools(this.declared);
        assertThat(all).extracting(WorkerPools.Pool::name).containsExactly(WorkerPools.SHARED, "reports");
        assertThat(all).extracting(WorkerPools.Pool::threads).containsExactly(10, 4);
        assertThat(all.get(0).targets().names()).containsExactlyInAnyOrder("tick", "housekeeping");
        assertThat(all.get(1).targets().names()).containsExactly("report");
        assertThat(all.get(1).targets().find("tick")).isEmpty();
        assertThat(pools.poolOf("reports")).isEqualTo("reports");
        assertThat(pools.poolOf(NodeGroups.DEFAULT)).isEqualTo(WorkerPools.SHARED);
        assertThat(pools.poolOf(NodeGroups.ANY)).isEqualTo(WorkerPools.SHARED);
    }

    @Test
    void withoutThreadsOfTheirOwnEveryServedGroupSharesOnePool() {
        List<WorkerPools.Pool> all =
                WorkerPools.shared(new NodeGroups(List.of("reports")), 3).pools(this.declared);

        assertThat(all).hasSize(1);
        assertThat(all.get(0).threads()).isEqualTo(3);
        assertThat(all.get(0).targets().names()).containsExactlyInAnyOrder("report", "housekeeping");
    }

    @Test
    void aPoolNeedsAThreadAndItsGroupMustBeOneTheNodeServes() {
        NodeGroups groups = new NodeGroups(List.of("reports"));
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new WorkerPools(groups, 10, Map.of("billing", 2)))
                .withMessageContaining("dsched.node.group-threads.billing")
                .withMessageContaining("does not serve group 'billing'");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new WorkerPools(groups, 10, Map.of("reports", 0)))
                .withMessageContaining("dsched.node.group-threads.reports must be at least 1");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> WorkerPools.shared(groups, 0))
                .withMessageContaining("dsched.threads");
    }
}
