package io.dsched.groups;

import io.dsched.test.TestDatabases;

class MariaDbNodeGroupTests extends AbstractNodeGroupTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.MARIADB;
    }
}
