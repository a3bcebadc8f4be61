package io.dsched.reliability;

import io.dsched.test.TestDatabases;

class MariaDbRetryTests extends AbstractRetryTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.MARIADB;
    }
}
