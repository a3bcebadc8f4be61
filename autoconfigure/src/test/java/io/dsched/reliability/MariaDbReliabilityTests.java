package io.dsched.reliability;

import io.dsched.test.TestDatabases;

class MariaDbReliabilityTests extends AbstractReliabilityTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.MARIADB;
    }
}
