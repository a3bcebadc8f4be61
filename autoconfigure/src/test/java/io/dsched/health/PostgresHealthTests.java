package io.dsched.health;

import io.dsched.test.TestDatabases;

class PostgresHealthTests extends AbstractHealthTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.POSTGRESQL;
    }

    @Override
    protected String unreachableUrl() {
        return "jdbc:postgresql://127.0.0.1:1/dsched?connectTimeout=2";
    }
}
