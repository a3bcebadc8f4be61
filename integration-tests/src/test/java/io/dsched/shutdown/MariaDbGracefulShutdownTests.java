package io.dsched.shutdown;

import io.dsched.test.TestDatabases;

class MariaDbGracefulShutdownTests extends AbstractGracefulShutdownTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.MARIADB;
    }
}
