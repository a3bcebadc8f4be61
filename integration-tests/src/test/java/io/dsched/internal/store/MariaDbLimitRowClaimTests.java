package io.dsched.internal.store;

import io.dsched.test.TestDatabases;

class MariaDbLimitRowClaimTests extends AbstractLimitRowClaimTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.MARIADB;
    }
}
