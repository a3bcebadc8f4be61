package io.dsched.internal.cluster;

import io.dsched.test.TestDatabases;

class MariaDbClusterIsolationTests extends AbstractClusterIsolationTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.MARIADB;
    }
}
