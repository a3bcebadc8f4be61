package io.dsched.engine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DschedQuartzJobTests {

    /**
     * Quartz stores the job's class name with every dsched job: a node that cannot load it (one of
     * an older or newer version, during a rolling deployment) puts the job's trigger in error.
     */
    @Test
    void theNameQuartzStoresForEveryJobStaysTheSame() {
        assertThat(DschedQuartzJob.class.getName()).isEqualTo("io.dsched.engine.DschedQuartzJob");
    }
}
