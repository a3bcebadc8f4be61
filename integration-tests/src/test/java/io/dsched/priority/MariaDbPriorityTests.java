package io.dsched.priority;

import io.dsched.test.TestDatabases;

class MariaDbPriorityTests extends AbstractPriorityTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.MARIADB;
    }
}
