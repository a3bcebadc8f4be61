package io.dsched.jitter;

import io.dsched.test.TestDatabases;

class MariaDbJitterTests extends AbstractJitterTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.MARIADB;
    }
}
