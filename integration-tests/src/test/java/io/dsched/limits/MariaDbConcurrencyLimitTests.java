package io.dsched.limits;

import io.dsched.test.TestDatabases;

class MariaDbConcurrencyLimitTests extends AbstractConcurrencyLimitTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.MARIADB;
    }
}
