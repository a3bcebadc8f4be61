package io.dsched.health;

import io.dsched.test.TestDatabases;

class MariaDbHealthTests extends AbstractHealthTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.MARIADB;
    }

    @Override
    protected String unreachableUrl() {
        return "jdbc:mariadb://127.0.0.1:1/dsched?connectTimeout=2000";
    }
}
