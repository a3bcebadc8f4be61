package io.dsched.reliability;

import io.dsched.test.TestDatabases;

class PostgresRetryTests extends AbstractRetryTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.POSTGRESQL;
    }
}
