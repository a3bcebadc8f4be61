package io.dsched.soak;

import io.dsched.test.TestDatabases;

class MariaDbSoakTests extends AbstractSoakTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.MARIADB;
    }
}
