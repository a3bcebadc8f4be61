package io.dsched.groups;

import io.dsched.test.TestDatabases;

class PostgresNodeGroupTests extends AbstractNodeGroupTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.POSTGRESQL;
    }
}
