package io.dsched.internal.execution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class NodeGroupsTests {

    private final JobTargets declared = Fixtures.targets(
            Fixtures.inGroup("report", "reports"),
            Fixtures.inGroup("tick", NodeGroups.DEFAULT),
            Fixtures.inGroup("housekeeping", NodeGroups.ANY));

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
}
