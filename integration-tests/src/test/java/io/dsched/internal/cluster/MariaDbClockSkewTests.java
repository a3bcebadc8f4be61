package io.dsched.internal.cluster;

import io.dsched.test.TestDatabases;

class MariaDbClockSkewTests extends AbstractClockSkewTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.MARIADB;
    }
}
