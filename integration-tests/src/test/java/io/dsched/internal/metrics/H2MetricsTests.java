package io.dsched.internal.metrics;

import io.dsched.test.TestDatabases;

class H2MetricsTests extends AbstractMetricsTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.H2;
    }
}
