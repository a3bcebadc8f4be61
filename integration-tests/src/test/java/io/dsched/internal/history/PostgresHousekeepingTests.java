package io.dsched.internal.history;

import io.dsched.test.TestDatabases;

class PostgresHousekeepingTests extends AbstractHousekeepingTests {

    @Override
    protected TestDatabases.Kind kind() {
        return TestDatabases.Kind.POSTGRESQL;
    }
}
