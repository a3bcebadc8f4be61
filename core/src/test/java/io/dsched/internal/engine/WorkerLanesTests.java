package io.dsched.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WorkerLanesTests {

    @Test
    void theThreadsOfGroupsAreReadAndWritten() {
        assertThat(WorkerLanes.groupThreads("reports=4, payments=2"))
                .containsExactly(Map.entry("reports", 4), Map.entry("payments", 2));
        assertThat(WorkerLanes.groupThreads("")).isEmpty();
        assertThat(WorkerLanes.spec(WorkerLanes.groupThreads("reports=4,payments=2")))
                .isEqualTo("reports=4,payments=2");
        for (String bad : List.of("reports", "reports=0", "reports=x", "=3")) {
            assertThatIllegalArgumentException()
                    .isThrownBy(() -> WorkerLanes.groupThreads(bad))
                    .withMessageContaining("group=threads");
        }
    }
}
