package io.dsched.cancel;

import io.dsched.test.TestDatabases;

class MariaDbCancelTests extends AbstractCancelTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.MARIADB;
    }
}
