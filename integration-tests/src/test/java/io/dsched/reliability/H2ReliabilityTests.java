package io.dsched.reliability;

import io.dsched.test.TestDatabases;

class H2ReliabilityTests extends AbstractReliabilityTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.H2;
    }
}
