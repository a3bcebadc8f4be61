package io.dsched.priority;

import io.dsched.test.TestDatabases;

class PostgresPriorityTests extends AbstractPriorityTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.POSTGRESQL;
    }
}
