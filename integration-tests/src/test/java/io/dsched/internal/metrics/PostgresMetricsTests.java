package io.dsched.internal.metrics;

import io.dsched.test.TestDatabases;

class PostgresMetricsTests extends AbstractMetricsTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.POSTGRESQL;
    }

    @Override
    protected String notices() {
        return "notices";
    }
}
