package io.dsched.internal.metrics;

import io.dsched.test.TestDatabases;

class MariaDbMetricsTests extends AbstractMetricsTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.MARIADB;
    }
}
