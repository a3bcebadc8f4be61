package io.dsched.priority;

import io.dsched.test.TestDatabases;

class H2PriorityTests extends AbstractPriorityTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.H2;
    }
}
