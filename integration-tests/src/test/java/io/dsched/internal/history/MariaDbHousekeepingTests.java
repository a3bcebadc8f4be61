package io.dsched.internal.history;

import io.dsched.test.TestDatabases;

class MariaDbHousekeepingTests extends AbstractHousekeepingTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.MARIADB;
    }
}
