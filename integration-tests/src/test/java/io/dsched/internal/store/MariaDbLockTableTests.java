package io.dsched.internal.store;

import io.dsched.test.TestDatabases;

class MariaDbLockTableTests extends AbstractLockTableTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.MARIADB;
    }
}
