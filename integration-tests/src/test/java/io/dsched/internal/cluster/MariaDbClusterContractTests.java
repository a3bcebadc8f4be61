package io.dsched.internal.cluster;

import io.dsched.test.TestDatabases;

class MariaDbClusterContractTests extends AbstractClusterContractTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.MARIADB;
    }
}
