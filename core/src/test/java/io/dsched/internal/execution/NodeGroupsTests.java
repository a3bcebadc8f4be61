package io.dsched.internal.execution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import io.dsched.internal.retry.RetryPolicy;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class NodeGroupsTests {

    private static final RetryPolicy ONCE =
            new RetryPolicy(1, Duration.ZERO, 1, Duration.ZERO, Duration.ZERO, List.of(), List.of());

    private final JobTargets declared = new JobTargets() {

        private final Map<String, JobTarget> targets = Map.of(
                "report", target("report", "reports"),
                "tick", target("tick", NodeGroups.DEFAULT),
                "housekeeping", target("housekeeping", NodeGroups.ANY));

        @Override
        public Optional<JobTarget> find(String name) {
            return Optional.ofNullable(this.targets.get(name));
        }

        @Override
        public Set<String> names() {
            return this.targets.keySet();
        }
    };

    @Test
    void aNodeRunsTheTargetsOfTheGroupsItServesAndDschedsOwnJobsWhateverItServes() {
        JobTargets served = new NodeGroups(List.of("reports")).served(this.declared);

        assertThat(served.names()).containsExactlyInAnyOrder("report", "housekeeping");
        assertThat(served.find("report")).isPresent();
        assertThat(served.find("tick")).isEmpty();
        assertThat(NodeGroups.defaultOnly().served(this.declared).names())
                .containsExactlyInAnyOrder("tick", "housekeeping");
    }

    @Test
    void theGroupsOfTargetsLeaveDschedsOwnJobsOut() {
        assertThat(NodeGroups.of(this.declared)).containsExactly(NodeGroups.DEFAULT, "reports");
    }

    @Test
    void aFireOfAGroupThisNodeDoesNotServeSaysWhichGroupItWaitsFor() {
        NodeGroups groups = new NodeGroups(List.of("reports", "billing"));

        assertThat(groups.whyNotHere(this.declared.find("tick"), "node-1"))
                .isEqualTo("waiting for a node of group 'default': node node-1 serves billing, reports");
        assertThat(groups.whyNotHere(Optional.empty(), "node-1")).isEqualTo(ClaimsInTransaction.notDeclared("node-1"));
    }

    @Test
    void groupNamesAreCheckedAndNoNodeMayNameDschedsOwnGroup() {
        assertThat(NodeGroups.validated("reports-eu.2_b")).hasValue("reports-eu.2_b");
        assertThat(NodeGroups.validated("no spaces")).isEmpty();
        assertThat(NodeGroups.validated("-leading")).isEmpty();
        assertThat(NodeGroups.validated(NodeGroups.ANY)).isEmpty();
        assertThat(NodeGroups.validated("x".repeat(61))).isEmpty();
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new NodeGroups(List.of()))
                .withMessageContaining("dsched.node.groups");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new NodeGroups(List.of("reports", "*")))
                .withMessageContaining("'*' is not a valid group name");
    }

    private static JobTarget target(String name, String group) {
        return new JobTarget(name, group, ONCE, null, false, null, null, (context, payload) -> {});
    }
}
