package io.dsched.reliability;

import io.dsched.test.TestDatabases;

class PostgresReliabilityTests extends AbstractReliabilityTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.POSTGRESQL;
    }
}
